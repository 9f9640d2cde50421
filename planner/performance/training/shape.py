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
from dataclasses import dataclass

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


def layer_params(
    *,
    hidden_size: int,
    q_width: int,
    kv_width: int,
    ffn_hidden: int,
    gated_mlp: bool,
    experts: int,
    shared_experts: int,
) -> tuple[float, float]:
    """Dense and routed-expert parameters of one layer [count].

    ``dense = h (q + 2 kv) + q h + S g h f``, ``routed = E g h f`` (``E = 0`` for a dense model,
    whose FFN counts as dense), ``g = 3`` gated else 2.

    >>> layer_params(hidden_size=4096, q_width=8192, kv_width=512, ffn_hidden=1536, gated_mlp=True,
    ...              experts=128, shared_experts=0)  # Qwen3-235B-A22B: 71.3M dense, 2.42G routed
    (71303168.0, 2415919104.0)
    """
    h = hidden_size
    ffn = (3.0 if gated_mlp else 2.0) * h * ffn_hidden
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
) -> ModelShape:
    """Layers, width and attention/FFN shape of a transformer of ``params_b`` billion parameters.

    Notes
    -----
    ``P = L h^2 (4 + 8E)``; with ``h = 128 L``, ``L = (P / (128^2 (4 + 8E)))^(1/3)``.

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
    if experts > 1 and ffn_hidden is not None:
        dense, routed = layer_params(
            hidden_size=hidden_size,
            q_width=heads * head_dim if head_dim else hidden_size,
            kv_width=kv_heads * head_dim if head_dim else kv_heads * hidden_size // heads,
            ffn_hidden=ffn_hidden, gated_mlp=gated_mlp, experts=experts, shared_experts=shared_experts,
        )  # fmt: skip
        dense = layers * dense + 2.0 * (vocab or 0) * hidden_size
        routed *= layers
        dense_share = dense / (dense + routed)
        active_share = dense_share + (1.0 - dense_share) * top_k / experts
    return ModelShape(
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
    )
