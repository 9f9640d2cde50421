"""Serving fields from a Hugging Face ``config.json``: the training reader's shape, plus attention.

Notes
-----
The shape (layers, width, heads, KV heads, FFN, vocabulary, experts) is
:func:`planner.performance.training.hf.job_fields_from_hf_config`'s. Serving also needs what sets
the KV cache: ``head_dim`` where the config gives it (Qwen3, Gemma), and multi-head latent attention's
``kv_lora_rank`` and ``qk_rope_head_dim`` (DeepSeek-V2/V3 configs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.performance.training.hf import job_fields_from_hf_config

SERVING_KEYS = {"head_dim": "head_dim", "kv_lora_rank": "kv_lora_rank", "qk_rope_head_dim": "rope_head_dim"}
"""``config.json`` key -> :class:`~planner.inputs.serving.ServingRequest` field."""


def serving_fields_from_hf_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`~planner.inputs.serving.ServingRequest` fields a ``config.json`` gives.

    Parameters
    ----------
    config : Mapping[str, Any]
        A Hugging Face ``config.json``, parsed (keys such as ``num_hidden_layers``,
        ``hidden_size``, ``kv_lora_rank``) [dimensionless].

    Returns
    -------
    dict[str, Any]
        ``ServingRequest`` field name -> value, only for fields the config sets: the training
        reader's shape (layers, width, heads, KV heads, FFN width, vocabulary, experts, top-k)
        [count] plus ``head_dim``, ``kv_lora_rank`` and ``rope_head_dim`` [count of elements]
        where given.

    >>> f = serving_fields_from_hf_config({"num_hidden_layers": 61, "hidden_size": 7168,
    ...     "num_attention_heads": 128, "kv_lora_rank": 512, "qk_rope_head_dim": 64,
    ...     "n_routed_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 2048})
    >>> f["kv_lora_rank"], f["rope_head_dim"], f["experts"], f["top_k"]
    (512, 64, 256, 8)
    """
    from planner.inputs.serving import ServingRequest

    fields = job_fields_from_hf_config(config)
    if config.get("head_dim") is None:  # the training reader's MLA head width is not a KV-cache head
        fields.pop("head_dim", None)
    fields.update({field: config[key] for key, field in SERVING_KEYS.items() if config.get(key) is not None})
    # the training-only keys (first-k dense, MLA ranks, routing limits) stay with training
    return {k: v for k, v in fields.items() if k in ServingRequest.model_fields}
