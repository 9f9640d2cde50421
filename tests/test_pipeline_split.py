"""Pipeline stages: uneven and balanced splits, and the activations each rank holds in flight."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.performance.training.pipeline import split_layers, stage_split


def test_llama3_405b_balanced_split_matches_the_paper() -> None:
    # arXiv 2407.21783 section 3.3.2: one layer fewer on the first and the last of 16 stages
    split = split_layers(layers=126, pp=16, v=1, split="balanced")
    assert split is not None
    assert split.rank_layers == (7, *[8] * 14, 7)


def test_balanced_split_is_chosen_only_when_faster_and_no_fuller() -> None:
    # 30 layers on 4 stages: even 7, 7, 8, 8 + logits; balanced 7, 8, 8, 7 + logits: the slowest
    # rank 8 against 8.3, and the fullest still holds 4 x 7 = 28 layer micro-batches
    assert stage_split(layers=30, pp=4, v=1, logits_layers=0.3).split == "balanced"
    # 96 layers on 8 stages: even 12 + 0.3 on the last; balanced 98 slots -> 13 on some stage
    assert stage_split(layers=96, pp=8, v=1, logits_layers=0.3).split == "even"
    # Llama 3 405B: balanced is faster (8 against 8.6) but its second stage holds 15 x 8 = 120
    # against 16 x 7 = 112: more memory, so even
    assert stage_split(layers=126, pp=16, v=1, logits_layers=0.6).split == "even"


@pytest.mark.parametrize(("pp", "v", "micro_batches"), [(4, 2, 64), (8, 3, 32), (16, 8, 32), (8, 4, 16)])
def test_interleaved_first_stage_holds_korthikanti_share(pp: int, v: int, micro_batches: int) -> None:
    # even split with L / (pp v) layers per chunk: the first rank holds
    # (L / pp) pp (1 + (pp - 1) / (pp v)) layer micro-batches (arXiv 2205.05198, section 4.2.3)
    layers = pp * v * 3
    split = split_layers(layers=layers, pp=pp, v=v, split="even")
    assert split is not None
    expected = layers * (1 + (pp - 1) / (pp * v))
    assert split.held_layers(0, micro_batches) == pytest.approx(min(expected, micro_batches * layers / pp))


def test_llama3_405b_interleaved_balanced_memory_is_on_the_second_rank() -> None:
    # v = 8, 128 slots over 128 chunks: chunk 0 is the embedding alone; rank 0 holds 143 chunk
    # passes of which 16 + 15 are the empty chunk: 112; rank 1 holds 141 one-layer chunks
    split = split_layers(layers=126, pp=16, v=8, split="balanced")
    assert split is not None
    assert split.held_layers(0, 32) == 112
    assert split.held_layers(1, 32) == 141


@given(
    layers=st.integers(min_value=1, max_value=200),
    pp=st.integers(min_value=1, max_value=32),
    v=st.integers(min_value=1, max_value=16),
)
def test_splits_keep_every_layer(layers: int, pp: int, v: int) -> None:
    for name in ("even", "balanced"):
        split = split_layers(layers=layers, pp=pp, v=v, split=name)
        if split is not None:
            assert sum(split.chunk_layers) == layers
            assert min(split.chunk_layers) >= 0
            assert len(split.chunk_layers) == pp * v


@given(
    layers=st.integers(min_value=1, max_value=200),
    pp=st.integers(min_value=1, max_value=16),
    v=st.integers(min_value=1, max_value=8),
    recompute_layers=st.integers(min_value=1, max_value=12),
)
def test_block_recomputation_splits_every_chunk_into_kept_and_recomputed(
    layers: int, pp: int, v: int, recompute_layers: int
) -> None:
    split = stage_split(layers=layers, pp=pp, v=v, logits_layers=0.5)
    kept, redone = split.block_parts(recompute_layers)
    for whole, k, r in zip(split.chunk_layers, kept.chunk_layers, redone.chunk_layers, strict=True):
        assert k + r == whole
        assert r == min(recompute_layers, whole)  # Megatron's block method: the first n of each chunk
    # what the ranks hold in flight adds up too
    for rank in range(pp):
        held = kept.held_layers(rank, 64) + redone.held_layers(rank, 64)
        assert held == split.held_layers(rank, 64)


@pytest.mark.parametrize(
    "fields",
    [
        # Llama 3 405B, Table 4's 8,192-GPU layout: full recomputation with interleaving and no
        # recomputation without it both fit; the search must not pick the slower
        {"params_b": 405, "layers": 126, "hidden_size": 16384, "heads": 128, "kv_heads": 8,
         "ffn_hidden": 53248, "gated_mlp": True, "vocab": 128000, "seq_len": 8192,
         "global_batch_seqs": 2048, "tp": 8, "pp": 16, "dp": 64},
        {"params_b": 70, "global_batch_seqs": 512},
    ],
)  # fmt: skip
def test_auto_recomputation_is_never_slower_than_a_fixed_choice_that_fits(fields: dict[str, object]) -> None:
    from planner import Scenario, load_catalog, plan
    from planner.errors import PlannerError
    from planner.performance.workload import estimate_workload, training_job

    catalog = load_catalog()
    gpus = 8192 if fields["params_b"] == 405 else 512
    p = plan(scenario=Scenario(gpus=gpus, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=catalog)
    auto = estimate_workload(job=training_job({**fields, "tokens_b": 1000}), plan=p, catalog=catalog)
    for recompute in ("none", "selective", "full", "block"):
        try:
            fixed = estimate_workload(
                job=training_job({**fields, "tokens_b": 1000, "recompute": recompute}),
                plan=p,
                catalog=catalog,
            )
        except PlannerError:
            continue  # no layout fits with this choice
        assert auto.step_time_s <= fixed.step_time_s * (1 + 1e-9), recompute


def test_more_chunks_than_layers_gives_the_embedding_and_the_output_layer_their_chunks() -> None:
    # 126 layers over 16 x 8 = 128 chunks: Llama 3's layout (arXiv 2407.21783, section 3.3.2), the
    # first chunk holds only the embedding and the last only the output layer, so chunks 0 (rank 0)
    # and 127 (rank 15) carry no transformer layer. Rank r runs w_r + 1 = 2 (15 - r) + 7 x 16 + 1
    # chunk passes at its peak (32 micro-batches), 31 - 2 r of them of its first chunk: rank 0 holds
    # 143 - 31 = 112, rank 1 all its 141 (the fullest), rank 2 139. Both empty chunks on one end
    # would leave the last rank 8 layers plus the output layer, slower; on the other end rank 0
    # would hold all 143.
    split = stage_split(layers=126, pp=16, v=8, logits_layers=0.6)
    assert split.split == "balanced"
    assert (split.chunk_layers[0], split.chunk_layers[1], split.chunk_layers[-1]) == (0, 1, 0)
    assert sum(split.chunk_layers) == 126
    assert [split.held_layers(r, 32) for r in range(3)] == [112, 141, 139]
