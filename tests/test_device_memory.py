"""Device memory: the capacity the driver reports, not the marketing figure (data/gpus.yaml
``visible_memory``, :func:`planner.catalog.schema.device_memory_bytes`)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from planner import load_catalog
from planner.catalog.schema import GB_BYTES, MIB_BYTES, Gpu, VisibleMemory, device_memory_bytes
from planner.performance.serving.coefficients import gpu_figures, serving_coefficients

GIB_BYTES = 2**30


def test_h100_reads_as_nvidia_smi_reports_it() -> None:
    # nvidia-smi shows 81559MiB on an H100 80GB HBM3 (NVIDIA/nccl issue 1264); 81559 x 2^20 B =
    # 85,520,809,984 B, the byte count Modal's PR 2797 quotes independently.
    gpu = load_catalog().gpus["h100_sxm"]
    assert device_memory_bytes(gpu) == 85_520_809_984
    assert device_memory_bytes(gpu) > gpu.hbm_gbyte * GB_BYTES * 1.06  # 6.9 % above "80 GB"


def test_every_catalog_gpu_states_its_driver_memory_between_gb_and_gib() -> None:
    """Each record carries the figure; it lies between the marketing figure read as GB and read as
    GiB (a figure typed in GB, or in GiB rather than MiB, falls outside)."""
    for gpu in load_catalog().gpus.values():
        assert gpu.visible_memory is not None, gpu.id
        total = device_memory_bytes(gpu)
        assert gpu.hbm_gbyte * GB_BYTES <= total <= gpu.hbm_gbyte * GIB_BYTES, gpu.id


def test_a_record_without_the_driver_figure_reads_the_marketing_figure_as_gb() -> None:
    gpu = load_catalog().gpus["h100_sxm"].model_copy(update={"visible_memory": None})
    assert isinstance(gpu, Gpu)
    assert device_memory_bytes(gpu) == 80 * GB_BYTES


def test_the_driver_figure_needs_a_source_or_a_reason() -> None:
    with pytest.raises(ValidationError, match="needs source and as_of"):
        VisibleMemory(total_mib=81559)
    with pytest.raises(ValidationError, match="needs a reason"):
        VisibleMemory(total_mib=81559, memory_assumption=True, memory_source="x", memory_as_of="2025")
    assert (
        VisibleMemory(total_mib=65536, memory_assumption=True, memory_reason="binary HBM").total_mib == 65536
    )


def test_serving_sees_the_driver_figure() -> None:
    catalog = load_catalog()
    figures = gpu_figures(
        catalog=catalog, gpu_id="b200_hgx", precision="bf16", coefficients=serving_coefficients(catalog)
    )
    # nvidia-smi 183359MiB on a B200 (TensorRT-LLM issue 10278): 183359 x 2^20 B
    assert figures.hbm_bytes == 183359 * MIB_BYTES
