"""Training FLOPs of a transformer: projections, attention with its s^2 term, FFN, logits.

Notes
-----
Forward FLOPs per token (a multiply-add = 2 FLOP; ``h_kv`` = K width, ``f`` the FFN width,
``g = 3`` gated else ``2`` FFN matrices, ``k`` experts per token, ``V`` the vocabulary)::

    layer  = 2 h (q + 2 h_kv) + 2 q h + 2 g h f k + 2 h E (QKV, output projection, FFN, router)
    attn   = 4 s q                                       (Q K^T and A V over the whole sequence)

(``q = heads x head width``, ``h`` unless the heads are wider together than the model; a mixture
of experts counts ``k`` routed plus the shared experts and the router on its expert layers only, the
dense width on its first-k dense layers, averaged over the layers; multi-head latent attention
counts its own projections, :func:`~planner.performance.training.shape.attention_params`, and
``q = heads x (qk head + v head) / 2`` in the core)
    logits = 2 h V
    mtp    = D (4 h^2 + layer of an expert layer + 4 s q + 2 h V)   (D multi-token prediction modules)

Model FLOPs = 3 x forward (backward is twice the forward). Hardware FLOPs add what is computed
again: full recomputation one more forward of every layer (not the logits), selective
recomputation the attention core, block recomputation one more forward of its recomputed layers. With MHA, ``f = 4 h``, no gate: ``72 B s L h^2 (1 + s / (6h) +
V / (12 L h))`` model FLOPs and, with full recomputation, ``96 B s L h^2 (1 + s / (6h) + V / (16 L
h))`` hardware FLOPs: Narayanan et al., SC 2021, arXiv 2104.04473, eq. 3; Korthikanti et al.,
arXiv 2205.05198, section 6 (MFU vs HFU).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from planner.performance.training.shape import ModelShape

Recompute = Literal["none", "selective", "full", "block"]
"""Activation recomputation: ``block`` recomputes in full the first ``n`` layers of each pipeline chunk
(:attr:`~planner.performance.training.memory.Parallel.recompute_layers`) and keeps every activation of
the others (Megatron-LM's ``--recompute-method block --recompute-num-layers n``)."""


@dataclass(frozen=True)
class TokenFlops:
    """Forward FLOPs of one token [FLOP]."""

    layer_matmul: float
    """Projections and FFN of one layer."""
    layer_attention: float
    """Attention core (``4 s h``) of one layer."""
    logits: float
    """Output layer, once per token."""
    mtp: float = 0.0
    """Multi-token prediction modules, once per token (:func:`mtp_flops`); 0 without."""

    @property
    def layer(self) -> float:
        return self.layer_matmul + self.layer_attention


def token_flops(shape: ModelShape, *, seq_len: int) -> TokenFlops:
    """Forward FLOPs of one token of a ``seq_len`` sequence (see the module notes).

    Parameters
    ----------
    shape : ModelShape
        The model's widths, heads, FFN, experts and vocabulary.
    seq_len : int
        Tokens per sequence, ``s`` [count] (the attention core grows with it).

    Returns
    -------
    TokenFlops
        Forward FLOPs of one token [FLOP]: the projections, FFN and router of one layer
        (averaged over the layers for a mixture of experts), the attention core of one layer
        (``4 s q``) and the logits (``2 h V``, once per token).

    Examples
    --------
    >>> from planner.performance.training.shape import model_shape
    >>> f = token_flops(model_shape(params_b=1.7, layers=24, hidden_size=2304), seq_len=2048)
    >>> f.layer_matmul == 24 * 2304**2, f.layer_attention == 4 * 2048 * 2304
    (True, True)
    """
    h = shape.hidden_size
    gates = shape.ffn_matrices
    matmul = 2.0 * shape.attention_params + 2.0 * gates * h * shape.ffn_matrices_per_token
    # the router's h x E scores on the expert layers (arXiv 2412.19437: a linear gate)
    matmul += 2.0 * h * shape.experts * shape.moe_layers / shape.layers
    attention = 4.0 * seq_len * shape.attention_core_width
    logits = 2.0 * h * shape.vocab
    mtp = mtp_flops(shape, seq_len=seq_len) if shape.mtp_layers else 0.0
    return TokenFlops(layer_matmul=matmul, layer_attention=attention, logits=logits, mtp=mtp)


def mtp_flops(shape: ModelShape, *, seq_len: int) -> float:
    """Forward FLOPs per token of the multi-token prediction modules [FLOP].

    Each of the ``D`` modules (DeepSeek-AI, arXiv 2412.19437, section 2.2, eq. 21-23) projects the
    concatenation of the normalised hidden state and the next token's embedding (``2h -> h``), runs
    one transformer block of the model's kind (an expert layer when the model has experts:
    Megatron-Core's ``get_gpt_mtp_block_spec`` reuses the decoder's layer spec) and computes the
    shared output head's logits again::

        mtp = D (2 (2h) h + 2 A + 2 g h f (k + S) + 2 h E + 4 s q + 2 h V)

    (``A`` the attention projections, :func:`~planner.performance.training.shape.attention_params`;
    a dense model's block ``2 g h f``). The embedding lookup and the norms are not counted.
    Megatron-Bridge's reported model TFLOP/s count them (r0.3.0,
    ``src/megatron/bridge/training/utils/flop_utils.py``: the modules as extra expert layers, their
    projection and the logits ``mtp_num_layers + 1`` times): its 26.02 DeepSeek-V3 rows give
    1,199 / 4,612 = 260.0 GFLOP per token, its 25.11 rows without MTP 961 / 3,848 = 249.7.

    Parameters
    ----------
    shape : ModelShape
        The model with its ``mtp_layers`` modules.
    seq_len : int
        Tokens per sequence, ``s`` [count].

    Returns
    -------
    float
        Forward FLOPs of all modules per token [FLOP]; 0 without multi-token prediction.

    Examples
    --------
    >>> from planner.performance.training.shape import model_shape
    >>> s = model_shape(params_b=1, layers=2, hidden_size=1024, heads=8, ffn_hidden=4096, vocab=1000, mtp_layers=1)
    >>> mtp_flops(s, seq_len=512)  # 4 h^2 + 8 h^2 + 16 h^2 (FFN 2 x 2 h 4h) + 4 x 512 x 1024 + 2 h 1000
    33505280.0
    """
    h = shape.hidden_size
    gates = shape.ffn_matrices
    experts = shape.experts > 1
    ffn = shape.ffn_hidden * (shape.top_k + shape.shared_experts if experts else 1)
    block = (
        2.0 * shape.attention_params + 2.0 * gates * h * ffn + (2.0 * h * shape.experts if experts else 0.0)
    )
    per_module = 4.0 * h * h + block + 4.0 * seq_len * shape.attention_core_width + 2.0 * h * shape.vocab
    return shape.mtp_layers * per_module


def model_flops_per_token(shape: ModelShape, *, seq_len: int) -> float:
    """Training model FLOPs per token [FLOP]: 3 x forward, recomputation not counted.

    Parameters
    ----------
    shape : ModelShape
        The model (see :func:`token_flops`).
    seq_len : int
        Tokens per sequence [count].

    Returns
    -------
    float
        ``3 (L x layer + logits + mtp)`` [FLOP per token], ``L`` the layers (:func:`mtp_flops`:
        the multi-token prediction modules count, as Megatron-Bridge's model TFLOP/s count them;
        the tokens are the sequence's, not the extra predictions).
    """
    f = token_flops(shape, seq_len=seq_len)
    return 3.0 * (shape.layers * f.layer + f.logits + f.mtp)


def recompute_flops_per_layer_token(flops: TokenFlops, recompute: Recompute) -> float:
    """Forward FLOPs done again per layer and token by recomputation [FLOP]; under ``block`` those
    of a layer that keeps its activations (0), a recomputed one counts as ``full``.

    Parameters
    ----------
    flops : TokenFlops
        Forward FLOPs of one token (:func:`token_flops`).
    recompute : {"none", "selective", "full", "block"}
        The activation recomputation (:data:`Recompute`).

    Returns
    -------
    float
        The whole layer under ``full``, the attention core under ``selective``, else 0 [FLOP per
        layer and token].
    """
    if recompute == "full":
        return flops.layer
    if recompute == "selective":
        return flops.layer_attention
    return 0.0


def training_flops(*, params_active: float, tokens: float) -> float:
    """Model FLOPs of training by the parameter rule [FLOP]: ``6 P D`` (Kaplan et al.).

    The estimate itself counts attention and logits (:func:`model_flops_per_token`).

    Parameters
    ----------
    params_active : float
        Parameters active per token, ``P`` [count].
    tokens : float
        Training tokens, ``D`` [count].

    Returns
    -------
    float
        ``6 P D`` [FLOP].

    Examples
    --------
    >>> training_flops(params_active=70e9, tokens=1.4e12)  # 6 x 70e9 x 1.4e12
    5.88e+23
    """
    return 6.0 * params_active * tokens
