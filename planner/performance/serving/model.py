"""What a served model weighs: weight bytes per format, KV-cache bytes per token, FLOPs per token.

Notes
-----
Shape: :func:`planner.performance.training.shape.model_shape` (the one shape model), from the
request's fields. When ``active_params_b`` is given, the split between the parameters every token
uses (attention, embeddings, shared experts: ``P_d``) and the routed experts (``P_e``) follows from
``P_d + P_e = P`` and ``P_d + P_e k / E = A``: ``P_e = (P - A) / (1 - k / E)``.

Weights: ``P x b_w`` with ``b_w`` = 2 B (BF16), 1 B (FP8, per-tensor scales negligible) and
0.5625 B (FP4 as NVFP4: 4-bit values plus one 8-bit scale per 16, NVIDIA, "Introducing NVFP4 for
Efficient and Accurate Low-Precision Inference", developer blog, 2025).

KV cache per token, all layers, ``b_kv`` bytes per element::

    MHA / GQA   2 L h_kv d b_kv          (K and V of h_kv heads of width d; MHA: h_kv = heads)
    MLA         L (r_kv + d_rope) b_kv   (one compressed latent and the decoupled RoPE key)

(GQA: Ainslie et al., arXiv 2305.13245; MLA: DeepSeek-V2, arXiv 2405.04434, section 2.1.) Tensor
parallelism splits GQA's KV heads over ``min(tp, h_kv)`` GPUs; MLA's latent is shared by all heads,
so every TP rank keeps the whole of it.

Forward FLOPs per token at context ``c``: ``2 A + L x 4 c h`` (every active weight once, a
multiply-add being 2 FLOP, plus the attention core of :func:`planner.performance.training.flops.token_flops`).

Routed experts a step touches: with ``T`` tokens each choosing ``k`` of ``E`` experts uniformly,
the expected share of experts hit is ``1 - (1 - k / E)^T``; a decode step at batch 1 reads only
``k`` experts' weights, a large batch reads them all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from planner.i18n.message import msg
from planner.inputs.serving import ServingRequest
from planner.performance.training.flops import token_flops
from planner.performance.training.shape import ModelShape, model_shape

Attention = Literal["mha", "gqa", "mla"]

WEIGHT_BYTES_PER_PARAM: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5625}
"""Bytes per weight of each format (module notes) [B]."""
KV_BYTES_PER_ELEMENT: dict[str, float] = {"bf16": 2.0, "fp8": 1.0}
"""Bytes per KV-cache element [B]."""
ACTIVATION_BYTES = 2.0
"""Bytes per activation element moved between GPUs (BF16) [B]."""


@dataclass(frozen=True)
class ServedModel:
    """The sizes the serving model needs, derived once from a request."""

    shape: ModelShape
    attention: Attention
    params: float
    """Total parameters [count]."""
    params_active: float
    """Parameters a token passes through [count]."""
    params_dense: float
    """Parameters every token uses (attention, embeddings, shared experts) [count]."""
    params_expert: float
    """Routed expert parameters, all experts [count]; 0 for a dense model."""
    experts: int
    top_k: int
    weight_bytes_per_param: float
    """[B]"""
    kv_bytes_per_token: float
    """KV cache of one token over all layers [B]."""
    kv_split_max: int
    """Most GPUs tensor parallelism can split the KV cache over: KV heads, or 1 for MLA [count]."""
    decode_kv_reads: float = 1.0
    """Times a decode step reads each cached K,V element from HBM [-]: 1 when the kernel shares a
    KV head's K,V over its query heads; ``heads / kv_heads`` when it runs one thread block per
    query head (TensorRT-LLM's masked multi-head attention before its XQA kernel, which its
    documentation credits with "reducing data loading" for grouped-query models)."""
    notes: tuple[str, ...] = ()
    mla_rank: int = 0
    """Multi-head latent attention: the cached latent's width; 0 = not MLA [count]."""
    mla_rope: int = 0
    """Multi-head latent attention: the decoupled RoPE key width [count]."""
    head_dim: int = 0
    """Width of one query/key head (MLA: its non-rotary part) [count]."""

    @property
    def moe(self) -> bool:
        return self.experts > 1

    @property
    def weights_bytes(self) -> float:
        """All weights [B]."""
        return self.params * self.weight_bytes_per_param

    @property
    def dense_bytes(self) -> float:
        """Weights every token uses [B]."""
        return self.params_dense * self.weight_bytes_per_param

    @property
    def expert_bytes(self) -> float:
        """Routed experts' weights [B]."""
        return self.params_expert * self.weight_bytes_per_param

    def flops_per_token(self, *, context: float, absorbed: bool = False) -> float:
        """Forward FLOPs of one token attending over ``context`` tokens [FLOP] (module notes)."""
        return 2.0 * self.params_active + self.attention_flops_per_token(context=context, absorbed=absorbed)

    def attention_flops_per_token(self, *, context: float, absorbed: bool = False) -> float:
        """Attention-core FLOPs of one token over all layers [FLOP].

        Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 section 2.1) runs as multi-head
        attention in prefill, ``2 c a (d + d_r) + 2 c a d_v`` per layer (``d_v = d``), and with the
        up-projections absorbed into the query and output in decode, where every head attends over
        the cached latent: ``2 c a (r + d_r) + 2 c a r``. Other models: ``4 c q``.

        >>> m = served_model(ServingRequest(params_b=671, active_params_b=37, layers=61, hidden_size=7168,
        ...                                 heads=128, kv_lora_rank=512))
        >>> m.attention_flops_per_token(context=1, absorbed=True) == 61 * 2 * 128 * (512 + 64 + 512)
        True
        """
        c = max(1.0, context)
        if self.mla_rank:
            a, d = self.shape.heads, self.head_dim
            width = (self.mla_rank + self.mla_rope + self.mla_rank) if absorbed else (d + self.mla_rope + d)
            return self.shape.layers * 2.0 * c * a * width
        attention = token_flops(self.shape, seq_len=max(1, round(context))).layer_attention
        return self.shape.layers * attention

    def experts_touched(self, *, tokens: float) -> float:
        """Expected share of routed experts a step of ``tokens`` tokens reads [-] (module notes).

        >>> m = served_model(ServingRequest(params_b=671, active_params_b=37))
        >>> round(m.experts_touched(tokens=1), 5), round(m.experts_touched(tokens=4096), 3)  # 8 / 256
        (0.03125, 1.0)
        """
        if not self.moe:
            return 1.0
        return float(1.0 - (1.0 - self.top_k / self.experts) ** max(tokens, 1.0))

    def kv_split(self, tp: int) -> int:
        """GPUs of a TP group the KV cache is split over [count]."""
        return max(1, min(tp, self.kv_split_max))


def served_model(request: ServingRequest) -> ServedModel:
    """Shape, weight and KV-cache sizes of the request's model (module notes).

    Parameters
    ----------
    request : ServingRequest
        Validated serving request; its model fields (parameters, layers, width, heads, experts,
        MLA ranks) and its weight and KV-cache precisions are read.

    Returns
    -------
    ServedModel
        The model as served: parameter counts (total, active, dense, routed-expert) [count],
        bytes per weight [B] and KV-cache bytes per token over all layers [B], attention kind
        (``mha``, ``gqa`` or ``mla``) [dimensionless], and notes on assumed values.

    >>> m = served_model(ServingRequest(params_b=70, layers=80, hidden_size=8192, heads=64, kv_heads=8))
    >>> m.attention, m.kv_bytes_per_token  # 2 x 80 layers x 8 heads x 128 x 2 B
    ('gqa', 327680.0)
    >>> mla = served_model(ServingRequest(params_b=671, active_params_b=37, layers=61, hidden_size=7168,
    ...                                   heads=128, kv_lora_rank=512))
    >>> mla.attention, mla.kv_bytes_per_token  # 61 x (512 + 64) x 2 B
    ('mla', 70272.0)
    """
    r = request
    experts, top_k = r.routed_experts, r.experts_per_token
    shape = model_shape(
        params_b=r.params_b, experts=experts, top_k=top_k, layers=r.layers, hidden_size=r.hidden_size,
        heads=r.heads, kv_heads=r.kv_heads, ffn_hidden=r.ffn_hidden, gated_mlp=r.gated_mlp, vocab=r.vocab,
        shared_experts=r.shared_experts,
    )  # fmt: skip
    notes: list[str] = []
    if r.moe_from_active_only:
        notes.append(
            msg(
                "experts not given: a fine-grained mixture of experts is assumed ({experts} routed, "
                "{top_k} per token, as DeepSeek-V3)",
                experts=experts,
                top_k=top_k,
            )
        )
    params = shape.params
    active, dense, expert = shape.params_active, shape.params_dense, shape.params_expert
    if r.active_params_b is not None and experts > 1:
        active = r.active_params_b * 1e9
        expert = min(params, (params - active) / (1.0 - top_k / experts))
        dense = params - expert
        active = dense + expert * top_k / experts
    elif r.active_params_b is not None:
        active = params  # a dense model uses every weight
    head_dim = r.head_dim or shape.hidden_size // shape.heads
    kv_elem = KV_BYTES_PER_ELEMENT[r.kv_precision]
    if r.kv_lora_rank is not None:
        attention: Attention = "mla"
        kv_per_token = shape.layers * (r.kv_lora_rank + r.rope_head_dim) * kv_elem
        kv_split_max = 1
    else:
        attention = "mha" if shape.kv_heads == shape.heads else "gqa"
        kv_per_token = 2.0 * shape.layers * shape.kv_heads * head_dim * kv_elem
        kv_split_max = shape.kv_heads
    shape = replace(shape, params_active=active, params_dense=dense, params_expert=expert)
    return ServedModel(
        shape=shape, attention=attention, params=params, params_active=active, params_dense=dense,
        params_expert=expert, experts=experts, top_k=top_k,
        weight_bytes_per_param=WEIGHT_BYTES_PER_PARAM[r.precision], kv_bytes_per_token=kv_per_token,
        kv_split_max=kv_split_max, notes=tuple(notes),
        mla_rank=r.kv_lora_rank or 0, mla_rope=r.rope_head_dim if r.kv_lora_rank else 0,
        head_dim=r.head_dim or (128 if r.kv_lora_rank else shape.hidden_size // shape.heads),
        decode_kv_reads=(
            shape.heads / shape.kv_heads
            if attention == "gqa" and r.decode_attention == "per_query_head"
            else 1.0
        ),
    )  # fmt: skip
