"""Transformer shape: layers, width, heads, KV heads, FFN, vocabulary and experts.

Notes
-----
When only the parameter count is given: ``P = L h^2 (4 + 8 E)`` (attention ``4 h^2`` and ``E``
feed-forward experts of ``8 h^2`` per layer, Kaplan et al., arXiv 2001.08361) with
``h = 128 L`` (Llama 3, arXiv 2407.21783 Table 3). Heads default to ``h / 128``, KV heads to the
heads (multi-head attention), the FFN to ``4 h`` without a gate. Multi-head latent attention
(DeepSeek-V2/V3) is approximated as multi-head attention with ``kv_heads = heads``: its compressed
KV cache matters for inference, not for training FLOPs to first order. The head width defaults to
``h / heads``; models whose heads are wider together than the model (Qwen3: 64 heads of 128 at
``h = 4096``) give it (``head_dim``).

A mixture of experts splits its parameters into the dense part (attention, shared experts,
embeddings: replicated like a dense model's) and the routed experts (sharded over ``ep``): from the
shape when layers, width and FFN are given (:func:`layer_params`), else by the rule above
(attention ``4 h^2`` against ``8 h^2`` per expert).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

HIDDEN_PER_LAYER = 128
"""Default aspect ratio h / L: Llama 3 8B (4096 / 32) and 405B (16384 / 126) (arXiv 2407.21783
Table 3)."""
HEAD_DIM = 128
"""Default attention head width when the heads are not given (Llama 3, GPT-3 175B)."""


@dataclass(frozen=True)
class ModelShape:
    """Sizes that FLOPs, communication and memory depend on."""

    layers: int
    hidden_size: int
    params: float
    """Total parameters [count]."""
    params_active: float
    """Parameters a token passes through [count]."""
    params_dense: float
    """Parameters outside the experts (all of a dense model's) [count]."""
    params_expert: float
    """Expert feed-forward parameters, all experts; 0 for a dense model [count]."""
    heads: int = 1
    kv_heads: int = 1
    ffn_hidden: int = 4
    """Feed-forward inner width of a dense layer (or of one expert) [count]."""
    gated_mlp: bool = False
    """SwiGLU-style gate: three FFN matrices instead of two."""
    vocab: int = 0
    """Vocabulary; 0 = logits not counted [count]."""
    experts: int = 1
    top_k: int = 1
    shared_experts: int = 0
    head_dim: int = 0
    """Width of one attention head; 0 = ``h / heads`` [count]."""
    dense_layers: int = 0
    """First layers whose FFN is dense, not experts (DeepSeek-V3: 3) [count]."""
    dense_ffn_hidden: int = 0
    """FFN width of those dense layers; 0 = ``ffn_hidden`` [count]."""
    q_lora_rank: int = 0
    """Multi-head latent attention (DeepSeek-V2/V3): query compression rank; 0 = none [count]."""
    kv_lora_rank: int = 0
    """Multi-head latent attention: key/value compression rank; 0 = not MLA [count]."""
    qk_rope_head_dim: int = 0
    """Multi-head latent attention: rotary part of each query/key head [count]."""
    v_head_dim: int = 0
    """Multi-head latent attention: width of each value head; 0 = ``head_dim`` [count]."""
    mtp_layers: int = 0
    """Multi-token prediction modules after the last layer (DeepSeek-V3: 1); 0 = none [count]
    (:func:`mtp_params`)."""

    @property
    def moe_layers(self) -> int:
        """Layers whose FFN is a mixture of experts [count]."""
        return self.layers - self.dense_layers if self.experts > 1 else 0

    @property
    def attention_params(self) -> float:
        """Projection parameters of one attention layer [count] (:func:`attention_params`)."""
        return attention_params(
            hidden_size=self.hidden_size, heads=self.heads, q_width=self.q_width, kv_width=self.kv_width,
            head_dim=self.head_dim or self.hidden_size // self.heads, q_lora_rank=self.q_lora_rank,
            kv_lora_rank=self.kv_lora_rank, qk_rope_head_dim=self.qk_rope_head_dim, v_head_dim=self.v_head_dim,
        )  # fmt: skip

    @property
    def attention_core_width(self) -> float:
        """Width ``q`` in the attention core's ``4 s q`` FLOPs per token [count]: ``heads x head``,
        with MLA ``heads x (qk head + v head) / 2`` (``Q K^T`` over the query/key width, ``A V`` over
        the value width)."""
        if not self.kv_lora_rank:
            return float(self.q_width)
        d = self.head_dim or self.hidden_size // self.heads
        return self.heads * (d + self.qk_rope_head_dim + (self.v_head_dim or d)) / 2.0

    @property
    def ffn_matrices_per_token(self) -> float:
        """FFN width a token passes through, averaged over the layers [count]: ``(k + S) f`` on
        expert layers, the dense width on the first-k dense layers, ``f`` for a dense model."""
        if self.experts <= 1:
            return float(self.ffn_hidden)
        moe = self.moe_layers * (self.top_k + self.shared_experts) * self.ffn_hidden
        dense = self.dense_layers * (self.dense_ffn_hidden or self.ffn_hidden)
        return (moe + dense) / self.layers

    @property
    def q_width(self) -> int:
        """Width of Q and of the attention output: ``heads x head_dim``, else ``h`` [count]."""
        return self.heads * self.head_dim if self.head_dim else self.hidden_size

    @property
    def kv_width(self) -> int:
        """Width of K (and of V): ``kv_heads x head_dim``, else ``kv_heads x h / heads`` [count]."""
        return (
            self.kv_heads * self.head_dim if self.head_dim else self.kv_heads * self.hidden_size // self.heads
        )

    @property
    def ffn_per_token(self) -> int:
        """Feed-forward experts each token passes through (1 for a dense model) [count]."""
        return self.top_k + self.shared_experts if self.experts > 1 else 1

    @property
    def ffn_matrices(self) -> int:
        """Weight matrices of one feed-forward block: 3 with a SwiGLU-style gate, else 2 [count]."""
        return 3 if self.gated_mlp else 2


def attention_params(
    *,
    hidden_size: int,
    heads: int,
    q_width: int,
    kv_width: int,
    head_dim: int,
    q_lora_rank: int = 0,
    kv_lora_rank: int = 0,
    qk_rope_head_dim: int = 0,
    v_head_dim: int = 0,
) -> float:
    """Projection parameters of one attention layer [count].

    ``h (q + 2 kv) + q h``; with multi-head latent attention (DeepSeek-AI, arXiv 2405.04434
    section 2.1; ``d`` the head width, ``d_r`` its rotary part, ``d_v`` the value head, ``r_q``,
    ``r_kv`` the ranks; ``h r_q + r_q a (d + d_r)`` becomes ``h a (d + d_r)`` without ``r_q``)::

        h r_q + r_q a (d + d_r) + h (r_kv + d_r) + r_kv a (d + d_v) + a d_v h

    Parameters
    ----------
    hidden_size : int
        Model width, ``h`` [count].
    heads : int
        Attention heads, ``a`` [count].
    q_width : int
        Width of Q and of the attention output, ``q`` [count] (unused with MLA).
    kv_width : int
        Width of K and of V, ``kv`` [count] (unused with MLA).
    head_dim : int
        Width of one head, ``d`` [count] (MLA only).
    q_lora_rank : int
        Query compression rank, ``r_q`` [count]; 0 = none.
    kv_lora_rank : int
        Key/value compression rank, ``r_kv`` [count]; 0 = not MLA.
    qk_rope_head_dim : int
        Rotary part of each query/key head, ``d_r`` [count].
    v_head_dim : int
        Width of each value head, ``d_v`` [count]; 0 = ``d``.

    Returns
    -------
    float
        Parameters of the Q, K, V and output projections of one layer [count].

    Examples
    --------
    >>> attention_params(hidden_size=7168, heads=128, q_width=0, kv_width=0, head_dim=128,
    ...     q_lora_rank=1536, kv_lora_rank=512, qk_rope_head_dim=64, v_head_dim=128)  # DeepSeek-V3
    187105280.0
    """
    h = hidden_size
    if not kv_lora_rank:
        return float(h * (q_width + 2 * kv_width) + q_width * h)
    a, d, d_r = heads, head_dim, qk_rope_head_dim
    d_v = v_head_dim or d
    query = h * q_lora_rank + q_lora_rank * a * (d + d_r) if q_lora_rank else h * a * (d + d_r)
    return float(query + h * (kv_lora_rank + d_r) + kv_lora_rank * a * (d + d_v) + a * d_v * h)


def mtp_params(shape: ModelShape) -> tuple[float, float]:
    """Parameters of the multi-token prediction modules, outside and in the routed experts [count].

    Each module (DeepSeek-AI, arXiv 2412.19437, section 2.2) shares the embedding and the output
    head with the main model (no parameters of its own there) and adds a projection ``M`` of
    ``2h x h`` and one transformer block of the model's own kind, a mixture of experts when the
    model has experts (Megatron-Core's ``get_gpt_mtp_block_spec`` takes the decoder's layer spec;
    the DeepSeek-V3 checkpoint's layer 61 holds 256 routed experts); its two RMSNorms of ``h`` and
    the block's norms are not counted::

        dense  = D (2 h^2 + attention + S g h f + h E)      routed = D E g h f

    (``D`` modules; the router's ``h E`` with the dense part, as the model's layers keep it.)

    Parameters
    ----------
    shape : ModelShape
        The model (its ``mtp_layers``, width, attention, experts and FFN).

    Returns
    -------
    tuple[float, float]
        Parameters outside the routed experts and in the routed experts of all modules [count];
        ``(0, 0)`` without multi-token prediction.

    Examples
    --------
    >>> s = ModelShape(layers=2, hidden_size=1024, params=0, params_active=0, params_dense=0,
    ...                params_expert=0, heads=8, kv_heads=8, ffn_hidden=4096, mtp_layers=1)
    >>> mtp_params(s)  # 2 x 1024^2 + 4 x 1024^2 (attention) + 2 x 1024 x 4096 (FFN): a dense block
    (14680064.0, 0.0)
    """
    if not shape.mtp_layers:
        return 0.0, 0.0
    h = shape.hidden_size
    dense, routed = layer_params(
        hidden_size=h, q_width=shape.q_width, kv_width=shape.kv_width, ffn_hidden=shape.ffn_hidden,
        gated_mlp=shape.gated_mlp, experts=shape.experts, shared_experts=shape.shared_experts,
        attention=shape.attention_params,
    )  # fmt: skip
    router = h * shape.experts if shape.experts > 1 else 0.0
    return shape.mtp_layers * (2.0 * h * h + dense + router), shape.mtp_layers * routed


def layer_params(
    *,
    hidden_size: int,
    q_width: int,
    kv_width: int,
    ffn_hidden: int,
    gated_mlp: bool,
    experts: int,
    shared_experts: int,
    attention: float | None = None,
) -> tuple[float, float]:
    """Dense and routed-expert parameters of one layer [count].

    ``dense = h (q + 2 kv) + q h + S g h f``, ``routed = E g h f`` (``E = 0`` for a dense model,
    whose FFN counts as dense), ``g = 3`` gated else 2.

    Parameters
    ----------
    hidden_size : int
        Model width, ``h`` [count].
    q_width : int
        Width of Q and of the attention output, ``q`` [count].
    kv_width : int
        Width of K and of V, ``kv`` [count].
    ffn_hidden : int
        FFN inner width of the layer (of one expert), ``f`` [count].
    gated_mlp : bool
        Three FFN matrices (gate) instead of two.
    experts : int
        Routed experts of the layer, ``E`` [count]; 1 = dense.
    shared_experts : int
        Shared experts, ``S`` [count] (expert layers only).
    attention : float or None
        Attention projection parameters [count] when the caller has them
        (:func:`attention_params`); ``None``: ``h (q + 2 kv) + q h``.

    Returns
    -------
    tuple[float, float]
        Parameters outside the routed experts and in the routed experts [count].

    Examples
    --------
    >>> layer_params(hidden_size=4096, q_width=8192, kv_width=512, ffn_hidden=1536, gated_mlp=True,
    ...              experts=128, shared_experts=0)  # Qwen3-235B-A22B: 71.3M dense, 2.42G routed
    (71303168.0, 2415919104.0)
    """
    h = hidden_size
    ffn = (3.0 if gated_mlp else 2.0) * h * ffn_hidden
    if attention is None:
        attention = float(h * (q_width + 2 * kv_width) + q_width * h)
    if experts > 1:
        return attention + shared_experts * ffn, experts * ffn
    return attention + ffn, 0.0


def model_shape(
    *,
    params_b: float,
    experts: int = 1,
    top_k: int = 1,
    layers: int | None = None,
    hidden_size: int | None = None,
    heads: int | None = None,
    kv_heads: int | None = None,
    ffn_hidden: int | None = None,
    gated_mlp: bool = False,
    vocab: int | None = None,
    shared_experts: int = 0,
    head_dim: int | None = None,
    dense_layers: int = 0,
    dense_ffn_hidden: int | None = None,
    q_lora_rank: int | None = None,
    kv_lora_rank: int | None = None,
    qk_rope_head_dim: int = 0,
    v_head_dim: int | None = None,
    mtp_layers: int = 0,
) -> ModelShape:
    """Layers, width and attention/FFN shape of a transformer of ``params_b`` billion parameters.

    Notes
    -----
    ``P = L h^2 (4 + 8E)``; with ``h = 128 L``, ``L = (P / (128^2 (4 + 8E)))^(1/3)``.

    Parameters
    ----------
    params_b : float
        Total parameters [10^9].
    experts, top_k, shared_experts : int
        Routed experts per layer, those each token passes through, and shared experts [count];
        ``experts = 1``: a dense model.
    layers, hidden_size, heads, kv_heads, ffn_hidden, vocab, head_dim : int or None
        The shape where known [count]; ``None``: derived (layers and width from ``params_b``,
        ``h / 128`` heads, KV heads = heads, FFN ``4 h``, no logits, head ``h / heads``).
    gated_mlp : bool
        Three FFN matrices (gate) instead of two.
    dense_layers : int
        First layers with a dense FFN in a mixture of experts [count].
    dense_ffn_hidden : int or None
        FFN width of those layers [count]; ``None``: ``ffn_hidden``.
    q_lora_rank, kv_lora_rank, qk_rope_head_dim, v_head_dim : int or None
        Multi-head latent attention ranks and head widths [count] (:func:`attention_params`).
    mtp_layers : int
        Multi-token prediction modules [count]: their parameters (:func:`mtp_params`) come on top
        of ``params_b``, the main model's (a Hugging Face config's ``num_hidden_layers`` leaves
        them out: DeepSeek-V3's 671B, the checkpoint's 685B with them).

    Returns
    -------
    ModelShape
        Layers, width, heads, FFN, vocabulary and experts, with the total, active, dense and
        expert parameters [count]; the dense share from the shape when a mixture of experts
        gives ``ffn_hidden``, else from ``4 h^2`` against ``8 h^2`` per expert.

    Examples
    --------
    >>> s = model_shape(params_b=70)
    >>> (s.layers, s.hidden_size)  # L = (70e9 / (16384 x 12))^(1/3) = 70.9; h = (70e9 / (71 x 12))^0.5
    (71, 9064)
    >>> round(model_shape(params_b=141, experts=8, top_k=2).params_active / 1e9, 1)  # 141 x 20/68
    41.5
    """
    params = params_b * 1e9
    per_layer_h2 = 4.0 + 8.0 * experts
    if hidden_size is not None and layers is None:
        layers = max(1, round(params / (hidden_size**2 * per_layer_h2)))
    if layers is None:
        layers = max(1, round((params / (HIDDEN_PER_LAYER**2 * per_layer_h2)) ** (1.0 / 3.0)))
    if hidden_size is None:
        hidden_size = max(64, round(math.sqrt(params / (layers * per_layer_h2))))
    heads = heads or max(1, round(hidden_size / HEAD_DIM))
    kv_heads = min(heads, kv_heads or heads)
    # a dense model's feed-forward weights are not experts: they are replicated like attention's
    dense_share = 4.0 / per_layer_h2 if experts > 1 else 1.0
    active_share = (4.0 + 8.0 * (top_k + shared_experts)) / per_layer_h2 if experts > 1 else 1.0
    mla = {
        "q_lora_rank": q_lora_rank or 0, "kv_lora_rank": kv_lora_rank or 0,
        "qk_rope_head_dim": qk_rope_head_dim if kv_lora_rank else 0, "v_head_dim": v_head_dim or 0,
    }  # fmt: skip
    shape = ModelShape(
        layers=layers,
        hidden_size=hidden_size,
        params=params,
        params_active=params * active_share,
        params_dense=params * dense_share,
        params_expert=params * (1.0 - dense_share),
        heads=heads,
        kv_heads=kv_heads,
        ffn_hidden=ffn_hidden or 4 * hidden_size,
        gated_mlp=gated_mlp,
        vocab=vocab or 0,
        experts=experts,
        top_k=top_k,
        shared_experts=shared_experts,
        head_dim=head_dim or 0,
        dense_layers=dense_layers if experts > 1 else 0,
        dense_ffn_hidden=dense_ffn_hidden or 0,
        **mla,
    )
    if experts > 1 and ffn_hidden is not None:
        dense_share = _dense_share(shape)
        active_share = dense_share + (1.0 - dense_share) * top_k / experts
        shape = replace(
            shape,
            params_active=params * active_share,
            params_dense=params * dense_share,
            params_expert=params * (1.0 - dense_share),
        )
    return _with_mtp(shape, mtp_layers)


def _with_mtp(shape: ModelShape, mtp_layers: int) -> ModelShape:
    """The shape with its multi-token prediction modules and their parameters added
    (:func:`mtp_params`; a routed expert's share of the active ones as in the layers)."""
    if not mtp_layers:
        return shape
    shape = replace(shape, mtp_layers=mtp_layers)
    dense, routed = mtp_params(shape)
    active = dense + (routed * shape.top_k / shape.experts if shape.experts > 1 else 0.0)
    return replace(
        shape,
        params=shape.params + dense + routed,
        params_active=shape.params_active + active,
        params_dense=shape.params_dense + dense,
        params_expert=shape.params_expert + routed,
    )


def _dense_share(shape: ModelShape) -> float:
    """Share of a mixture of experts' parameters outside the routed experts [-]: attention on every
    layer, shared experts on the expert layers, the dense FFN of the first-k dense layers, and the
    embeddings and output layer."""
    h, attention = shape.hidden_size, shape.attention_params
    dense, routed = layer_params(
        hidden_size=h, q_width=shape.q_width, kv_width=shape.kv_width, ffn_hidden=shape.ffn_hidden,
        gated_mlp=shape.gated_mlp, experts=shape.experts, shared_experts=shape.shared_experts, attention=attention,
    )  # fmt: skip
    dense_ffn = (3.0 if shape.gated_mlp else 2.0) * h * (shape.dense_ffn_hidden or shape.ffn_hidden)
    total_dense = (
        shape.layers * attention + shape.moe_layers * (dense - attention) + shape.dense_layers * dense_ffn
    )
    total_dense += 2.0 * shape.vocab * h
    return total_dense / (total_dense + routed * shape.moe_layers)
