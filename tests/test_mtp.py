"""Multi-token prediction in training (DeepSeek-V3 section 2.2): FLOPs, parameters, placement.

Each golden carries its hand count; property tests compare two jobs that differ in ``mtp_layers`` only.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from planner import Catalog, Scenario, plan
from planner.inputs.training import TrainingJob
from planner.performance.training.flops import model_flops_per_token, mtp_flops, token_flops
from planner.performance.training.hf import DEEPSEEK_V3_CONFIG, job_fields_from_hf_config
from planner.performance.training.pipeline import stage_split, tail_split
from planner.performance.training.shape import model_shape, mtp_params
from planner.performance.workload import estimate_workload, job_shape

DSV3: dict[str, Any] = {
    "params_b": 671, "layers": 61, "hidden_size": 7168, "heads": 128, "head_dim": 128, "q_lora_rank": 1536,
    "kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 128, "ffn_hidden": 2048, "gated_mlp": True,
    "experts": 256, "top_k": 8, "shared_experts": 1, "dense_layers": 3, "dense_ffn_hidden": 18432, "vocab": 129280,
}  # fmt: skip


def test_deepseek_v3_module_parameters() -> None:
    """One DeepSeek-V3 module: MLA 187,105,280 (7168 x 1536 + 1536 x 128 x 192 + 7168 x 576
    + 512 x 128 x 256 + 128 x 128 x 7168), projection 2 x 7168^2 = 102,760,448, shared expert
    3 x 7168 x 2048 = 44,040,192, router 7168 x 256 = 1,835,008: 335,740,928 outside the routed
    experts; 256 x 44,040,192 = 11,274,289,152 in them. 671 + 11.61 = 682.6 B, and with the
    checkpoint's own copies of the embedding and head (2 x 129,280 x 7168 = 1.85 B) 684.5 B: the
    685 B DeepSeek-V3's Hugging Face checkpoint states."""
    shape = model_shape(**DSV3, mtp_layers=1)
    assert mtp_params(shape) == (335_740_928.0, 11_274_289_152.0)
    base = model_shape(**DSV3)
    assert shape.params - base.params == pytest.approx(335_740_928 + 11_274_289_152)
    assert shape.params_expert - base.params_expert == pytest.approx(11_274_289_152)
    # active: the dense part and 8 of 256 routed experts
    assert shape.params_active - base.params_active == pytest.approx(335_740_928 + 11_274_289_152 * 8 / 256)


def test_deepseek_v3_module_flops_match_megatron_bridge_increment() -> None:
    """Forward FLOPs of one module per token at s = 4096: projection 4 h^2 = 205,520,896, MLA
    2 x 187,105,280 = 374,210,560, FFN 6 x 7168 x 2048 x 9 = 792,723,456, router 2 x 7168 x 256
    = 3,670,016, attention core 4 x 4096 x 128 x (128 + 64 + 128) / 2 = 335,544,320, logits
    2 x 7168 x 129,280 = 1,853,358,080: 3,565,027,328. Training counts it three times, 10.70 GFLOP
    per token, against the 10.3 Megatron-Bridge's reported model TFLOP/s add (26.02 rows 1,199 /
    4,612 = 260.0 GFLOP per token with the module, 25.11 rows 961 / 3,848 = 249.7 without;
    source tolerance 5 %: their formula counts the module as one more expert layer and its norms)."""
    shape = model_shape(**DSV3, mtp_layers=1)
    assert mtp_flops(shape, seq_len=4096) == 3_565_027_328.0
    increment = model_flops_per_token(shape, seq_len=4096) - model_flops_per_token(
        model_shape(**DSV3), seq_len=4096
    )
    assert increment == pytest.approx(3 * 3_565_027_328.0)
    assert increment / 1e9 == pytest.approx(260.0 - 249.7, rel=0.05)


def test_no_modules_changes_nothing() -> None:
    """mtp_layers 0 is today's model: the same shape, the same FLOPs."""
    assert model_shape(**DSV3, mtp_layers=0) == model_shape(**DSV3)
    assert token_flops(model_shape(**DSV3), seq_len=4096).mtp == 0.0


@pytest.mark.parametrize(
    ("pp", "v", "ranks"),
    [
        (16, 1, (4,) * 15 + (1,)),  # PP16: embedding + 4 | 4 x 14 | 1 + mtp + loss
        (4, 4, (16, 16, 16, 13)),  # 16 chunks: ranks 0-2 hold four chunks of 4, rank 3 three and the last 1
        (2, 8, (32, 29)),  # GB300's Et*4|(t*4|)*14tmL: 8 chunks of 4, and 7 of 4 plus 1
    ],
)
def test_split_is_the_recipes_layout(pp: int, v: int, ranks: tuple[int, ...]) -> None:
    """Megatron-Bridge r0.3.0 set_deepseek_v3_pipeline_model_parallel_layout: 61 layers on 16 chunks,
    the last one 1 layer with the module and the loss; the tail (logits 0.9 + module 2.0 layer
    equivalents, about 2.9) leaves room for floor(4 - 2.9) = 1 layer."""
    split = stage_split(layers=61, pp=pp, v=v, logits_layers=2.9, mtp=True)
    assert split.split == "tail"
    assert split.rank_layers == ranks
    assert sum(split.chunk_layers) == 61


def test_tail_split_grows_the_chunks_when_the_tail_needs_room() -> None:
    """10 layers on 4 chunks with a tail of 3.5 layers: 3 per chunk leaves floor(3 - 3.5) < 0, so
    3 x 3 = 9 < 10; 4 per chunk leaves floor(0.5) = 0: 4, 3, 3 and an empty last chunk (the
    lighter first: 10 over 3 chunks)."""
    assert tail_split(layers=10, pp=4, v=1, tail_layers=3.5).chunk_layers == (3, 3, 4, 0)


def test_module_costs_time_on_the_last_stage(catalog: Catalog) -> None:
    """Same job on 512 B200, PP 8: the module's FLOPs (about 4 % of DeepSeek-V3's) make the step
    longer and its memory larger, and count in the model FLOPs as Megatron-Bridge counts them;
    tokens per step stay the sequence's."""
    job = {
        **DSV3, "tokens_b": 1, "seq_len": 4096, "global_batch_seqs": 512, "tp": 1, "pp": 8, "ep": 8,
        "virtual_stages": 1, "micro_batch_seqs": 1, "recompute": "selective", "zero_stage": 1,
    }  # fmt: skip
    p = plan(scenario=Scenario(gpus=512, design_id="ib-ndr", gpu_id="b200_hgx"), catalog=catalog)
    without = estimate_workload(job=TrainingJob(**job), plan=p, catalog=catalog)
    with_mtp = estimate_workload(job=TrainingJob(**job, mtp_layers=1), plan=p, catalog=catalog)
    assert with_mtp.tokens_per_step == without.tokens_per_step
    assert with_mtp.step.compute_s > without.step.compute_s
    assert with_mtp.tokens_per_s < without.tokens_per_s
    # its parameters, a second logits buffer and its block's activations on the last stage
    assert with_mtp.layout.memory_gbyte_per_gpu > without.layout.memory_gbyte_per_gpu
    shape = job_shape(TrainingJob(**job, mtp_layers=1))
    assert shape.mtp_layers == 1
    flops_ratio = model_flops_per_token(shape, seq_len=4096) / model_flops_per_token(
        model_shape(**DSV3), seq_len=4096
    )
    assert flops_ratio == pytest.approx(1.04, abs=0.01)
    # the model FLOPs count the module: achieved TFLOP/s per token rises by that ratio
    per_token_with = with_mtp.achieved_tflops_per_gpu / with_mtp.tokens_per_s
    per_token_without = without.achieved_tflops_per_gpu / without.tokens_per_s
    assert per_token_with / per_token_without == pytest.approx(flops_ratio)


def test_hf_config_and_bounds() -> None:
    """DeepSeek-V3's config.json states num_nextn_predict_layers 1; a negative count is refused."""
    fields = job_fields_from_hf_config(DEEPSEEK_V3_CONFIG)
    assert fields["mtp_layers"] == 1
    assert round(fields["params_b"]) == 671  # the modules come on top, not inside
    with pytest.raises(ValidationError, match="mtp_layers"):
        TrainingJob(params_b=7, tokens_b=1, mtp_layers=-1)
