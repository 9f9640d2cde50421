"""Model shape from a Hugging Face ``config.json``.

Notes
-----
Keys mapped (the first present wins): ``num_hidden_layers`` -> layers, ``hidden_size``,
``num_attention_heads`` -> heads, ``num_key_value_heads`` -> kv_heads, ``head_dim``, ``intermediate_size`` ->
FFN width (``moe_intermediate_size`` for MoE experts), ``vocab_size``,
``num_local_experts`` / ``n_routed_experts`` / ``num_experts`` -> experts, ``num_experts_per_tok`` -> top_k,
``n_shared_experts``. A gated FFN is assumed when ``hidden_act`` is ``silu`` or ``swiglu`` (Llama,
Mistral, Qwen, DeepSeek). Parameters, when not given:
``P = L (h (q + 2 h_kv) + q h + g h f E') + V h (2 unless tie_word_embeddings)`` with ``g = 3``
gated else 2, ``q = heads x head_dim`` and ``E'`` the experts (routed + shared) per layer
(:func:`~planner.performance.training.shape.layer_params`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.errors import InputError, shorten
from planner.i18n.message import msg
from planner.performance.training.shape import layer_params

GATED_ACTIVATIONS = frozenset({"silu", "swiglu", "swish"})
"""``hidden_act`` values of gated (SwiGLU) FFNs."""


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
    """The :class:`~planner.performance.training.job.TrainingJob` fields a ``config.json`` gives.

    >>> f = job_fields_from_hf_config({"num_hidden_layers": 32, "hidden_size": 4096,
    ...     "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    ...     "vocab_size": 128256, "hidden_act": "silu"})
    >>> f["kv_heads"], f["gated_mlp"], round(f["params_b"], 2)  # Llama 3 8B
    (8, True, 8.03)
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
    }
    if fields["ffn_hidden"] is None:
        fields["ffn_hidden"] = _first(config, "intermediate_size", "n_inner", "ffn_dim")
    fields = {k: v for k, v in fields.items() if v is not None}
    params = _params(fields, tied=bool(config.get("tie_word_embeddings", False)))
    if params is not None:
        fields["params_b"] = params / 1e9
    return fields


def _params(fields: Mapping[str, Any], *, tied: bool) -> float | None:
    """Parameters of the shape [count]; ``None`` when layers or width are missing (module notes)."""
    layers, h = fields.get("layers"), fields.get("hidden_size")
    if not layers or not h:
        return None
    heads = fields.get("heads") or max(1, h // 128)
    head_dim, kv_heads = fields.get("head_dim"), fields.get("kv_heads") or heads
    dense, routed = layer_params(
        hidden_size=h,
        q_width=heads * head_dim if head_dim else h,
        kv_width=kv_heads * head_dim if head_dim else kv_heads * h // heads,
        ffn_hidden=fields.get("ffn_hidden") or 4 * h, gated_mlp=bool(fields.get("gated_mlp")),
        experts=fields.get("experts") or 1, shared_experts=fields.get("shared_experts") or 0,
    )  # fmt: skip
    vocab = fields.get("vocab") or 0
    return float(layers * (dense + routed) + vocab * h * (1 if tied else 2))
