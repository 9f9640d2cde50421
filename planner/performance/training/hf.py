"""Model shape from a Hugging Face ``config.json``.

Notes
-----
Keys mapped (the first present wins): ``num_hidden_layers`` -> layers, ``hidden_size``,
``num_attention_heads`` -> heads, ``num_key_value_heads`` -> kv_heads, ``head_dim``, ``intermediate_size`` ->
FFN width (``moe_intermediate_size`` for MoE experts), ``vocab_size``,
``num_local_experts`` / ``n_routed_experts`` / ``num_experts`` -> experts, ``num_experts_per_tok`` -> top_k,
``n_shared_experts``. A gated FFN is assumed when ``hidden_act`` is ``silu`` or ``swiglu`` (Llama,
Mistral, Qwen, DeepSeek). Mixtures of experts as their configs state them:

- DeepSeek-V2/V3: ``first_k_dense_replace`` -> dense_layers, of width ``intermediate_size``
  (dense_ffn_hidden); multi-head latent attention ``q_lora_rank``, ``kv_lora_rank``,
  ``qk_rope_head_dim``, ``v_head_dim``, with ``qk_nope_head_dim`` as the head width; group-limited
  routing ``topk_group`` (of ``n_group`` groups) -> moe_node_limit, the groups being the nodes an
  expert-parallel group spans when ``ep`` covers ``n_group`` nodes (DeepSeek-V3 section 2.1.2);
  ``num_nextn_predict_layers`` -> mtp_layers (the multi-token prediction modules, DeepSeek-V3
  section 2.2; their parameters are not in ``num_hidden_layers`` and come on top of params_b);
- Qwen3-MoE: ``mlp_only_layers`` -> dense_layers (its count; the layers are taken to be the first),
  dense width ``intermediate_size``;
- Mixtral: ``num_local_experts``, expert width ``intermediate_size``;
- GPT-OSS (``model_type`` ``gpt_oss``): its experts carry biases on both matrices (transformers'
  ``GptOssExperts``, ``gate_up_proj_bias`` and ``down_proj_bias``; no config key states it) -> expert_bias.

Parameters, when not given: ``P = L_moe (A + g h f E') + L_dense (A + g h f_d) + V h (2 unless
tie_word_embeddings)`` with ``A`` the attention projections
(:func:`~planner.performance.training.shape.attention_params`), ``g = 3`` gated else 2, ``q = heads
x head_dim`` and ``E'`` the experts (routed + shared) per layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.errors import InputError, shorten
from planner.i18n.message import msg
from planner.performance.training.shape import attention_params, layer_params

DEEPSEEK_V3_CONFIG = {
    "num_hidden_layers": 61, "hidden_size": 7168, "num_attention_heads": 128, "num_key_value_heads": 128,
    "intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
    "num_experts_per_tok": 8, "first_k_dense_replace": 3, "q_lora_rank": 1536, "kv_lora_rank": 512,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "n_group": 8, "topk_group": 4,
    "vocab_size": 129280, "hidden_act": "silu", "tie_word_embeddings": False, "num_nextn_predict_layers": 1,
}  # fmt: skip
"""The keys of DeepSeek-V3's ``config.json`` the reader takes (deepseek-ai/DeepSeek-V3 on Hugging Face)."""

GATED_ACTIVATIONS = frozenset({"silu", "swiglu", "swish"})
"""``hidden_act`` values of gated (SwiGLU) FFNs."""

BIASED_EXPERT_MODEL_TYPES = frozenset({"gpt_oss"})
"""``model_type`` values whose experts carry bias terms (module notes)."""


def _first(config: Mapping[str, Any], *keys: str) -> Any:
    """The first of ``keys`` present; every key read this way is a count, so anything but a whole
    number >= 0 (``"eighty"``, ``[1]``, ``80.5``, ``true``) is an :class:`InputError` naming it."""
    key = next((k for k in keys if config.get(k) is not None), None)
    if key is None:
        return None
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            msg(
                "config.json: {key} must be a whole number >= 0 (got {value})",
                key=key,
                value=shorten(repr(value)),
            )
        )
    return value


def job_fields_from_hf_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`~planner.inputs.training.TrainingJob` fields a ``config.json`` gives.

    Parameters
    ----------
    config : Mapping[str, Any]
        A Hugging Face ``config.json``, parsed (the keys of the module notes are read; the others
        are ignored).

    Returns
    -------
    dict[str, Any]
        Job field -> value: the counts found (``layers``, ``hidden_size``, ``heads``, ``kv_heads``,
        ``head_dim``, ``ffn_hidden``, ``vocab``, ``experts``, ``top_k``, ``shared_experts`` and the
        MoE and MLA fields) [count], ``gated_mlp`` (bool), and ``params_b`` [10^9 parameters]
        when layers and width are given; a field the config lacks is left out.

    Raises
    ------
    InputError
        A key read is not a whole number >= 0; the message names it.

    Examples
    --------
    >>> f = job_fields_from_hf_config({"num_hidden_layers": 32, "hidden_size": 4096,
    ...     "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    ...     "vocab_size": 128256, "hidden_act": "silu"})
    >>> f["kv_heads"], f["gated_mlp"], round(f["params_b"], 2)  # Llama 3 8B
    (8, True, 8.03)
    >>> f = job_fields_from_hf_config(DEEPSEEK_V3_CONFIG)
    >>> f["dense_layers"], f["dense_ffn_hidden"], f["moe_node_limit"], f["head_dim"], round(f["params_b"])
    (3, 18432, 4, 128, 671)
    >>> f["mtp_layers"]
    1
    """
    experts = _first(config, "num_local_experts", "n_routed_experts", "num_experts")
    fields: dict[str, Any] = {
        "layers": _first(config, "num_hidden_layers", "n_layer", "num_layers"),
        "hidden_size": _first(config, "hidden_size", "n_embd", "d_model"),
        "heads": _first(config, "num_attention_heads", "n_head"),
        "kv_heads": _first(config, "num_key_value_heads"),
        "head_dim": _first(config, "head_dim"),
        "ffn_hidden": _first(config, "moe_intermediate_size") if experts else None,
        "vocab": _first(config, "vocab_size"),
        "experts": experts,
        "top_k": _first(config, "num_experts_per_tok") if experts else None,
        "shared_experts": _first(config, "n_shared_experts") if experts else None,
        "gated_mlp": str(config.get("hidden_act", "")).lower() in GATED_ACTIVATIONS,
        "mtp_layers": _first(config, "num_nextn_predict_layers"),
    }
    if fields["ffn_hidden"] is None:
        fields["ffn_hidden"] = _first(config, "intermediate_size", "n_inner", "ffn_dim")
    if experts:
        fields.update(_moe_fields(config, experts_ffn=fields["ffn_hidden"]))
        if config.get("model_type") in BIASED_EXPERT_MODEL_TYPES:
            fields["expert_bias"] = True
    fields = {k: v for k, v in fields.items() if v is not None}
    params = _params(fields, tied=bool(config.get("tie_word_embeddings", False)))
    if params is not None:
        fields["params_b"] = params / 1e9
    return fields


def _moe_fields(config: Mapping[str, Any], *, experts_ffn: Any) -> dict[str, Any]:
    """First-k dense layers, multi-head latent attention and group-limited routing (module notes)."""
    dense = _first(config, "first_k_dense_replace")
    if dense is None and config.get("mlp_only_layers"):
        dense = len(config["mlp_only_layers"])
    dense_ffn = _first(config, "intermediate_size") if dense else None
    fields: dict[str, Any] = {
        "dense_layers": dense or None,
        "dense_ffn_hidden": dense_ffn if dense_ffn != experts_ffn else None,
        "q_lora_rank": _first(config, "q_lora_rank"),
        "kv_lora_rank": _first(config, "kv_lora_rank"),
    }
    if fields["kv_lora_rank"]:
        fields["head_dim"] = _first(config, "qk_nope_head_dim", "head_dim")
        fields["qk_rope_head_dim"] = _first(config, "qk_rope_head_dim")
        fields["v_head_dim"] = _first(config, "v_head_dim")
    groups, limit = _first(config, "n_group"), _first(config, "topk_group")
    if groups and limit and limit < groups:
        fields["moe_node_limit"] = limit
    return fields


def _params(fields: Mapping[str, Any], *, tied: bool) -> float | None:
    """Parameters of the shape [count]; ``None`` when layers or width are missing (module notes)."""
    layers, h = fields.get("layers"), fields.get("hidden_size")
    if not layers or not h:
        return None
    heads = fields.get("heads") or max(1, h // 128)
    head_dim, kv_heads = fields.get("head_dim"), fields.get("kv_heads") or heads
    q_width = heads * head_dim if head_dim else h
    kv_width = kv_heads * head_dim if head_dim else kv_heads * h // heads
    attention = attention_params(
        hidden_size=h, heads=heads, q_width=q_width, kv_width=kv_width, head_dim=head_dim or h // heads,
        q_lora_rank=fields.get("q_lora_rank") or 0, kv_lora_rank=fields.get("kv_lora_rank") or 0,
        qk_rope_head_dim=fields.get("qk_rope_head_dim") or 0, v_head_dim=fields.get("v_head_dim") or 0,
    )  # fmt: skip
    gated = bool(fields.get("gated_mlp"))
    ffn = fields.get("ffn_hidden") or 4 * h
    dense, routed = layer_params(
        hidden_size=h, q_width=q_width, kv_width=kv_width, ffn_hidden=ffn, gated_mlp=gated,
        experts=fields.get("experts") or 1, shared_experts=fields.get("shared_experts") or 0, attention=attention,
    )  # fmt: skip
    dense_layers = fields.get("dense_layers") or 0 if (fields.get("experts") or 1) > 1 else 0
    dense_ffn = (3.0 if gated else 2.0) * h * (fields.get("dense_ffn_hidden") or ffn)
    vocab = fields.get("vocab") or 0
    layer_sum = (layers - dense_layers) * (dense + routed) + dense_layers * (attention + dense_ffn)
    return float(layer_sum + vocab * h * (1 if tied else 2))
