"""Pipeline stages: how the layers split over stages and chunks, and what each stage holds in flight.

Notes
-----
With ``pp`` stages and ``v`` interleaved chunks per stage, virtual stage ``c = 0 .. pp v - 1`` runs on
rank ``c mod pp``. Two splits of ``L`` layers:

- ``even``: ``L = q n + r`` over ``n = pp v`` chunks, ``q`` layers on the first ``n - r`` chunks and
  ``q + 1`` on the rest (the lighter chunks first);
- ``balanced``: the embedding and the output layer each take one layer's slot, ``L + 2`` slots split
  like ``even``; the first and last chunks give one slot each to them. Llama 3 405B's 126 layers on
  16 stages run 7, 8, ..., 8, 7 (Grattafiori et al., arXiv 2407.21783, section 3.3.2); Megatron-Core
  calls it ``account_for_embedding_in_pipeline_split`` and ``account_for_loss_in_pipeline_split``.

- ``tail`` (a model with multi-token prediction modules, which Megatron-Core places after the last
  layer on the last stage, ``mtp_on_this_rank``): ``c`` layers on every chunk but the last, which
  holds ``floor(c - T)`` with ``T`` the output layer's and the modules' work in layer equivalents,
  ``c`` the least that places all ``L`` layers. DeepSeek-V3 (61 layers, ``T`` about 2.9) on 16
  chunks runs 4, ..., 4, 1 and the modules: the layout Megatron-Bridge's DeepSeek-V3 recipes state
  for every pipeline they run (r0.3.0, ``set_deepseek_v3_pipeline_model_parallel_layout``:
  ``embedding + 4 | 4 x 14 | 1 + mtp + loss`` for PP16, PP4 VP4 and PP8 VP2; the GB300 preset's
  ``Et*4|(t*4|)*14tmL`` for PP2 VP8). With modules this split is taken, not chosen.

The estimate takes ``balanced`` when its slowest rank is faster (rank time = its layers + on the last
rank the output layer, ``2 h V`` forward FLOPs per token in layer equivalents) and no rank holds more
activations at the 1F1B peak than with ``even``; else ``even``. With more chunks than layers
(``L < pp v``) there is no ``even`` split, and ``balanced`` is taken when ``L + 2 >= pp v``: Llama 3
405B with 8 chunks on 16 stages leaves the first chunk to the embedding and the last to the output
layer (section 3.3.2: "the first model chunk on the first stage has only the embedding"). Beyond
that, one layer per chunk with the empty chunks first.

Activations held in flight (1F1B; Narayanan et al., SC 2021, arXiv 2104.04473, section 2.2;
Megatron-LM's warm-up counts): rank ``r`` runs ``w_r`` forward passes before its first backward and
holds ``w_r + 1`` chunk passes at the peak, capped by the ``M v`` it runs in all::

    v = 1:  w_r = pp - r - 1
    v > 1:  w_r = 2 (pp - r - 1) + (v - 1) pp       forward pass k runs chunk (k div pp) mod v

Summing the layers of those chunks gives ``pp (L / pp) (1 + (pp - 1) / (pp v))`` layer micro-batches on
the first rank of an even split, Korthikanti et al.'s interleaved first-stage memory (arXiv
2205.05198, section 4.2.3); with a balanced split the second rank is the fullest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Literal

Split = Literal["even", "balanced", "tail"]


@dataclass(frozen=True)
class StageSplit:
    """Layers per chunk of a pipeline (chunk ``c`` on rank ``c mod pp``)."""

    pp: int
    v: int
    split: Split
    chunk_layers: tuple[int, ...]
    """Transformer layers of each of the ``pp v`` chunks, in pipeline order [count]."""

    @cached_property
    def rank_layers(self) -> tuple[int, ...]:
        """Transformer layers on each rank [count]."""
        return tuple(sum(self.chunk_layers[r :: self.pp]) for r in range(self.pp))

    @cached_property
    def max_layers(self) -> int:
        """Layers on the rank with the most [count]."""
        return max(self.rank_layers)

    def max_cost(self, *, logits_layers: float) -> float:
        """The slowest rank's work in layer equivalents (:meth:`rank_cost`)."""
        return max(self.max_layers, self.rank_layers[-1] + logits_layers)

    def rank_cost(self, *, logits_layers: float) -> tuple[float, ...]:
        """Work of each rank in layer equivalents: its layers, plus the output layer on the last."""
        layers = self.rank_layers
        return tuple(n + (logits_layers if r == self.pp - 1 else 0.0) for r, n in enumerate(layers))

    def held_layers(self, rank: int, micro_batches: int) -> int:
        """Layer activations of one micro-batch ``rank`` holds at its 1F1B peak [count] (module notes).

        >>> s = stage_split(layers=80, pp=4, v=2, logits_layers=0.0)
        >>> s.held_layers(0, 64)  # 2 x 3 + 4 + 1 = 11 chunk passes of 10 layers
        110
        """
        pp, v = self.pp, self.v
        if v == 1:
            return min(pp - rank, micro_batches) * self.chunk_layers[rank]
        in_flight = min(2 * (pp - rank - 1) + (v - 1) * pp + 1, micro_batches * v)
        # pass k runs chunk (k div pp) mod v: count the passes of each chunk, groups of pp at a time
        groups, rest = divmod(in_flight, pp)
        held = 0
        for j in range(v):
            passes = pp * (groups // v + (1 if j < groups % v else 0)) + (rest if groups % v == j else 0)
            held += passes * self.chunk_layers[j * pp + rank]
        return held

    def block_parts(self, recompute_layers: int) -> tuple[StageSplit, StageSplit]:
        """The layers of each chunk that keep their activations and those recomputed in full under
        block recomputation of ``recompute_layers`` per chunk (module notes).

        >>> kept, redone = split_layers(layers=30, pp=4, v=2, split="even").block_parts(2)
        >>> kept.chunk_layers, redone.chunk_layers  # chunks of 3 and 4 layers, the first 2 of each redone
        ((1, 1, 2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2, 2, 2))
        """
        return _block_parts(self, recompute_layers)


@lru_cache(maxsize=4096)
def _block_parts(split: StageSplit, recompute_layers: int) -> tuple[StageSplit, StageSplit]:
    redone = tuple(min(recompute_layers, n) for n in split.chunk_layers)
    kept = tuple(n - r for n, r in zip(split.chunk_layers, redone, strict=True))
    return replace(split, chunk_layers=kept), replace(split, chunk_layers=redone)


def _chunks(layers: int, chunks: int) -> list[int]:
    q, r = divmod(layers, chunks)
    return [q] * (chunks - r) + [q + 1] * r


@lru_cache(maxsize=4096)
def split_layers(*, layers: int, pp: int, v: int, split: Split) -> StageSplit | None:
    """The ``split`` of ``layers`` over ``pp v`` chunks; ``None`` when a chunk would be left empty of
    slots (module notes).

    >>> split_layers(layers=126, pp=16, v=1, split="balanced").rank_layers[:3]
    (7, 8, 8)
    """
    n = pp * v
    if split == "even":
        return StageSplit(pp, v, split, tuple(_chunks(layers, n))) if layers >= n else None
    if layers + 2 < n:
        return None
    slots = _chunks(layers + 2, n)
    slots[0] -= 1
    slots[-1] -= 1
    if min(slots) < 0:
        return None
    return StageSplit(pp, v, split, tuple(slots))


def tail_split(*, layers: int, pp: int, v: int, tail_layers: float) -> StageSplit:
    """The ``tail`` split (module notes): the last chunk makes room for ``tail_layers`` of work.

    Every chunk holds ``c`` layers, the last ``floor(c - T)``, ``c`` the least that places them all.

    Parameters
    ----------
    layers : int
        Transformer layers to place [count].
    pp : int
        Pipeline stages [count].
    v : int
        Virtual stages (interleaved chunks) per stage [count].
    tail_layers : float
        Work after the last layer (output layer, multi-token prediction modules) ``T`` [layer
        equivalents].

    Returns
    -------
    StageSplit
        The split, its chunks' layer counts in pipeline order [count].

    >>> tail_split(layers=61, pp=16, v=1, tail_layers=2.9).chunk_layers[-3:]  # 4 x 15 + 1
    (4, 4, 1)
    >>> tail_split(layers=61, pp=2, v=8, tail_layers=2.9).rank_layers  # 4 x 8 and 4 x 7 + 1
    (32, 29)
    """
    n = pp * v
    if n == 1:
        return StageSplit(pp, v, "tail", (layers,))
    per_chunk = max(1, math.ceil(layers / n))
    while (n - 1) * per_chunk + max(0, math.floor(per_chunk - tail_layers)) < layers:
        per_chunk += 1
    # the last chunk as full as its room allows; the others share the rest, the lighter first
    last = min(max(0, math.floor(per_chunk - tail_layers)), max(0, layers - (n - 1)))
    return StageSplit(pp, v, "tail", (*_chunks(layers - last, n - 1), last))


@lru_cache(maxsize=4096)
def stage_split(*, layers: int, pp: int, v: int, logits_layers: float, mtp: bool = False) -> StageSplit:
    """The split whose slowest rank is faster (module notes); ``logits_layers`` is the output layer's
    work in layer equivalents.

    >>> stage_split(layers=30, pp=4, v=1, logits_layers=0.3).split  # 7 8 8 7: 8 against 8.3, 28 held
    'balanced'
    >>> stage_split(layers=126, pp=16, v=1, logits_layers=0.6).split  # faster, but 120 held against 112
    'even'
    >>> stage_split(layers=96, pp=8, v=1, logits_layers=0.3).split  # 12.3 against 13
    'even'

    With ``mtp`` (the model has multi-token prediction modules) the ``tail`` split, its ``T`` the
    ``logits_layers`` (:func:`tail_split`).
    """
    if mtp and pp > 1:
        return tail_split(layers=layers, pp=pp, v=v, tail_layers=logits_layers)
    even = split_layers(layers=layers, pp=pp, v=v, split="even")
    balanced = split_layers(layers=layers, pp=pp, v=v, split="balanced") if pp > 1 else None
    if even is None:  # more chunks than layers: one layer per chunk, some chunks empty
        if balanced is not None:  # the embedding's slot first, the loss's last (module notes)
            return balanced
        even = StageSplit(pp, v, "even", tuple(_chunks(layers, pp * v)))  # the lighter first
    if balanced is None:
        return even
    faster = balanced.max_cost(logits_layers=logits_layers) < even.max_cost(logits_layers=logits_layers)
    # never a split that holds more activations at the 1F1B peak: memory would then push the
    # search to recomputation or a deeper pipeline, slower than the few layers it moves
    if faster and _peak_held(balanced) <= _peak_held(even):
        return balanced
    return even


def _peak_held(split: StageSplit) -> int:
    """The most layer activations any rank holds with the pipeline full [count]."""
    full = 2 * split.pp * split.v  # micro-batches enough for every rank's warm-up
    return max(split.held_layers(r, full) for r in range(split.pp))


@lru_cache(maxsize=65536)
def held_layers_per_rank(split: StageSplit, micro_batches: int) -> tuple[int, ...]:
    """Layer activations of one micro-batch each rank holds at its 1F1B peak [count]."""
    return tuple(split.held_layers(r, micro_batches) for r in range(split.pp))


@lru_cache(maxsize=65536)
def held_layer_micro_batches_of(split: StageSplit, micro_batches: int) -> tuple[int, int, int]:
    """The most layer activations any rank holds at its peak, that rank, and what the last rank
    holds [count, index, count]."""
    held = held_layers_per_rank(split, micro_batches)
    most = max(held)
    return most, held.index(most), held[-1]
