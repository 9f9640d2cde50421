"""Every UI string in English and Chinese, in one table (pure: no Streamlit).

``tr(key, lang, **params)`` looks a string up and fills ``{params}``. A key missing from the
table, or a language missing from a key, is a bug: ``tests/test_i18n.py`` fails on it, and at
run time the key is shown in brackets and recorded in :data:`MISSING` (the app tests check it).
"""

from __future__ import annotations

from typing import Any

LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
MISSING: set[str] = set()
"""Keys looked up but absent from :data:`STRINGS` during this process."""

CORE_STRINGS: dict[str, dict[str, str]] = {
    # --- frame and sidebar ---------------------------------------------------------------
    "app.title": {"en": "GPU Cluster Planner", "zh": "GPU 集群规划器"},
    "page.overview": {"en": "Overview", "zh": "概览"},
    "page.compare": {"en": "Compare designs", "zh": "方案对比"},
    "page.scaling": {"en": "Scaling", "zh": "规模扩展"},
    "page.topology": {"en": "Topology", "zh": "网络拓扑"},
    "page.bom": {"en": "Bill of materials", "zh": "物料清单"},
    "page.catalog": {"en": "Catalog", "zh": "组件目录"},
    "page.assumptions": {"en": "Assumptions", "zh": "假设与来源"},
    "sidebar.language": {"en": "Language / 语言", "zh": "语言 / Language"},
    "sidebar.presets": {"en": "Presets", "zh": "预设方案"},
    "sidebar.scenario": {"en": "Scenario", "zh": "场景参数"},
    "sidebar.advanced": {"en": "Finance and facility", "zh": "财务与设施"},
    "sidebar.share": {
        "en": "The scenario is kept in the page address: copy the link to share this exact view.",
        "zh": "场景参数保存在页面地址中：复制链接即可分享当前视图。",
    },
    "preset.rail8_1024": {"en": "8-rail NPO 1024-card supernode", "zh": "8 轨 NPO 1024 卡超节点"},
    "preset.rail4_256": {"en": "4-rail NPO 256-card cluster", "zh": "4 轨 NPO 256 卡集群"},
    "preset.ib_1024": {"en": "InfiniBand NDR 1024-GPU cluster", "zh": "InfiniBand NDR 1024 卡集群"},
    "input.gpus": {"en": "GPUs [count]", "zh": "GPU 数量 [张]"},
    "input.design": {"en": "Network design", "zh": "网络方案"},
    "input.gpu": {"en": "GPU", "zh": "GPU 型号"},
    "input.gpu_default": {"en": "Design default ({name})", "zh": "方案默认（{name}）"},
    "input.cooling": {"en": "Cooling", "zh": "散热方式"},
    "input.rack_kw": {"en": "Rack power limit [kW]", "zh": "单机柜功率上限 [kW]"},
    "input.elec": {"en": "Electricity price [USD/kWh]", "zh": "电价 [美元/kWh]"},
    "input.empty_means": {"en": "empty = {value} (catalog)", "zh": "留空 = {value}（目录值）"},
    "input.years": {"en": "TCO horizon [years]", "zh": "TCO 周期 [年]"},
    "input.currency": {"en": "Currency", "zh": "货币"},
    "input.discount": {"en": "Discount rate [fraction/year]", "zh": "折现率 [每年，小数]"},
    "input.load": {"en": "Average load [fraction of max]", "zh": "平均负载 [占峰值比例]"},
    "input.util": {"en": "GPU utilization [fraction]", "zh": "GPU 利用率 [比例]"},
    "input.pue": {"en": "PUE override [-]", "zh": "PUE 覆盖值 [-]"},
    "input.fx": {"en": "Exchange rate [CNY per USD]", "zh": "汇率 [人民币/美元]"},
    "help.input.gpus": {
        "en": "GPUs to plan, 8 to 1024 is the tuned range. Counts that are not a whole number of "
        "servers are rounded up. Press Enter to apply.",
        "zh": "规划的 GPU 数量，8 至 1024 为重点范围；不足整台服务器时向上取整。按回车生效。",
    },
    "help.input.design": {
        "en": "Network design preset: ports per GPU, port speed, planes, switch and optics.",
        "zh": "网络方案预设：每 GPU 端口数、端口速率、平面数、交换机与光学器件。",
    },
    "help.input.gpu": {
        "en": "Accelerator; the same GPU is used for every design on the Compare and Scaling pages.",
        "zh": "加速卡型号；“方案对比”和“规模扩展”页面中所有方案使用同一型号。",
    },
    "help.input.cooling": {
        "en": "Sets the PUE and the densest rack that can be cooled.",
        "zh": "决定 PUE 以及可散热的最高机柜功率密度。",
    },
    "help.input.rack_kw": {
        "en": "Power budget of one rack (5 to 300 kW); sets servers per rack.",
        "zh": "单个机柜的供电预算（5 至 300 kW），决定每柜服务器数量。",
    },
    "help.input.elec": {
        "en": "Price of energy in USD per kWh (0.001 to 2). Empty uses the catalog's US industrial average.",
        "zh": "电价，单位美元/kWh（0.001 至 2）。留空则使用目录中的美国工业平均电价。",
    },
    "help.input.years": {
        "en": "Years of operation counted in the TCO (1 to 15).",
        "zh": "计入 TCO 的运营年数（1 至 15）。",
    },
    "help.input.currency": {
        "en": "Currency of reported costs; CNY uses the catalog exchange rate.",
        "zh": "成本显示货币；人民币按目录中的汇率换算。",
    },
    "help.input.discount": {
        "en": "Yearly discount rate for TCO (0 to 0.5).",
        "zh": "TCO 的年折现率（0 至 0.5）。",
    },
    "help.input.load": {
        "en": "Average power as a share of maximum, for energy cost (0.05 to 1).",
        "zh": "平均功率占峰值功率的比例，用于计算电费（0.05 至 1）。",
    },
    "help.input.util": {
        "en": "Share of GPU-hours used or sold, for cost per GPU-hour (0.01 to 1).",
        "zh": "实际使用或售出的 GPU 小时占比，用于计算每 GPU 小时成本（0.01 至 1）。",
    },
    "help.input.pue": {
        "en": "Power usage effectiveness (1 to 3). Empty uses the cooling method's default.",
        "zh": "电能使用效率（1 至 3）。留空则使用所选散热方式的默认值。",
    },
    "help.input.fx": {
        "en": "CNY per USD for reports in CNY (0.01 to 100). Empty uses the catalog rate.",
        "zh": "以人民币显示成本时的汇率（0.01 至 100）。留空则使用目录中的汇率。",
    },
    "cooling.air": {"en": "Air cooling", "zh": "风冷"},
    "cooling.direct_liquid": {"en": "Direct-to-chip liquid cooling", "zh": "冷板式液冷"},
    "cooling.immersion": {"en": "Immersion cooling", "zh": "浸没式液冷"},
    "currency.USD": {"en": "USD", "zh": "美元"},
    "currency.CNY": {"en": "CNY", "zh": "人民币"},
    # --- messages ------------------------------------------------------------------------
    "error.input": {"en": "Not accepted: {message}", "zh": "输入无效：{message}"},
    "error.page": {
        "en": "The engine rejected these inputs: {message}",
        "zh": "计算引擎拒绝了当前输入：{message}",
    },
    "error.stale": {
        "en": "Showing the results of the last valid inputs until the input above is fixed.",
        "zh": "在修正上述输入之前，页面显示最近一次有效输入的结果。",
    },
    "error.url": {
        "en": "Link parameters ignored (unknown or out of range): {problems}",
        "zh": "链接中的以下参数无效或超出范围，已忽略：{problems}",
    },
    "scenario.line": {
        "en": "{gpus} × {gpu} · {design} · {nodes} nodes · {racks} racks · costs in {currency}",
        "zh": "{gpus} × {gpu} · {design} · {nodes} 台服务器 · {racks} 个机柜 · 成本单位：{currency}",
    },
    "scenario.details": {"en": "Scenario details", "zh": "场景明细"},
    "scenario.design": {"en": "Network design", "zh": "网络方案"},
    "scenario.gpu": {"en": "GPU", "zh": "GPU 型号"},
    "scenario.server": {"en": "Servers", "zh": "服务器"},
    "scenario.server_value": {
        "en": "{nodes} × {name}, {per_node} GPUs each",
        "zh": "{nodes} 台 {name}，每台 {per_node} 张 GPU",
    },
    "scenario.cooling": {"en": "Cooling", "zh": "散热"},
    "scenario.cooling_value": {"en": "{cooling}, PUE {pue}", "zh": "{cooling}，PUE {pue}"},
    "scenario.rack_limit": {"en": "Rack power limit", "zh": "单机柜功率上限"},
    "scenario.electricity": {"en": "Electricity price", "zh": "电价"},
    "scenario.set": {"en": "set in this scenario", "zh": "本场景设定"},
    "scenario.catalog": {"en": "catalog default", "zh": "目录默认值"},
    "scenario.finance": {"en": "TCO horizon and discount rate", "zh": "TCO 周期与折现率"},
    "scenario.finance_value": {"en": "{years} years at {rate} per year", "zh": "{years} 年，年折现率 {rate}"},
    "scenario.usage": {"en": "Average load and GPU utilization", "zh": "平均负载与 GPU 利用率"},
    "scenario.usage_value": {"en": "load {load}, utilization {util}", "zh": "负载 {load}，利用率 {util}"},
    "scenario.currency": {"en": "Currency", "zh": "货币"},
    "scenario.currency_value": {
        "en": "{currency} (1 USD = {rate} CNY)",
        "zh": "{currency}（1 美元 = {rate} 元）",
    },
    "col.item": {"en": "Item", "zh": "项目"},
    "col.value": {"en": "Value", "zh": "取值"},
    # --- overview ------------------------------------------------------------------------
    "kpi.gpus": {"en": "GPUs", "zh": "GPU 数量"},
    "kpi.nodes": {"en": "Nodes (servers)", "zh": "节点（服务器）"},
    "kpi.racks": {"en": "Racks", "zh": "机柜"},
    "kpi.switches": {"en": "Fabric switches", "zh": "计算网络交换机"},
    "kpi.per_gpu_bw": {"en": "Network bandwidth per GPU", "zh": "每 GPU 网络带宽"},
    "kpi.allreduce": {"en": "All-reduce busbw (1 GiB)", "zh": "All-reduce 总线带宽 (1 GiB)"},
    "kpi.alltoall": {"en": "All-to-all busbw (1 GiB)", "zh": "All-to-all 总线带宽 (1 GiB)"},
    "kpi.latency": {"en": "Worst GPU-to-GPU latency", "zh": "最大 GPU 间时延"},
    "kpi.it_power": {"en": "IT power (max)", "zh": "IT 功率（峰值）"},
    "kpi.facility_power": {"en": "Facility power (max)", "zh": "设施功率（峰值）"},
    "kpi.capex": {"en": "CAPEX", "zh": "建设投资 CAPEX"},
    "kpi.tco": {"en": "TCO over {years} years", "zh": "{years} 年 TCO"},
    "kpi.gpu_hour": {"en": "Cost per GPU-hour", "zh": "每 GPU 小时成本"},
    "help.gpus": {
        "en": "GPUs after rounding up to whole servers.",
        "zh": "按整台服务器向上取整后的 GPU 数量。",
    },
    "help.racks": {
        "en": "Compute racks plus network and storage racks.",
        "zh": "计算机柜与网络、存储机柜之和。",
    },
    "help.switches": {
        "en": "Leaf, spine and core switches of the compute fabric, all planes.",
        "zh": "计算网络所有平面的 Leaf、Spine 与 Core 交换机总数。",
    },
    "help.per_gpu_bw": {
        "en": "Ports per GPU × port speed (injection bandwidth).",
        "zh": "每 GPU 端口数 × 端口速率（注入带宽）。",
    },
    "help.busbw": {
        "en": "NCCL bus bandwidth of a 1 GiB all-reduce over all GPUs: the figure nccl-tests reports.",
        "zh": "全部 GPU 上 1 GiB all-reduce 的 NCCL 总线带宽，即 nccl-tests 报告的数值。",
    },
    "help.alltoall": {
        "en": "busbw of a 1 GiB-per-GPU all-to-all (expert parallelism): no hierarchical shortcut.",
        "zh": "每 GPU 1 GiB all-to-all（专家并行）的总线带宽，无法借助层级结构加速。",
    },
    "help.latency": {
        "en": "One-way latency across the top tier: NIC, SerDes/FEC, optics, propagation, switch hops.",
        "zh": "跨越最高层交换的单向时延：网卡、SerDes/FEC、光学器件、传播与交换机转发。",
    },
    "help.it_power": {"en": "All IT equipment at maximum load.", "zh": "所有 IT 设备满载功率。"},
    "help.facility_power": {"en": "IT power × PUE.", "zh": "IT 功率 × PUE。"},
    "help.capex": {
        "en": "Every BOM line plus installation and spares.",
        "zh": "物料清单全部条目加安装集成与备件费用。",
    },
    "help.tco": {
        "en": "CAPEX plus discounted yearly OPEX (energy, maintenance, space).",
        "zh": "CAPEX 加折现后的年度运营成本（电费、维保、机房空间）。",
    },
    "help.gpu_hour": {
        "en": "Annualised CAPEX plus OPEX, over GPU-hours at the chosen utilization.",
        "zh": "年化 CAPEX 加运营成本，除以按利用率计算的 GPU 小时数。",
    },
    "overview.notes": {"en": "Notes and warnings", "zh": "说明与警告"},
    "note.density": {
        "en": "The densest rack draws {kw} kW, above the {limit} kW the chosen cooling can remove: "
        "lower the rack power limit or choose liquid cooling.",
        "zh": "最高密度机柜功率 {kw} kW，超过所选散热方式的 {limit} kW 上限：请降低单机柜功率上限或改用液冷。",
    },
    "note.rounded": {
        "en": "{requested} GPUs rounded up to {nodes} whole servers of {per_node} GPUs = {gpus} GPUs.",
        "zh": "{requested} 张 GPU 已向上取整为 {nodes} 台服务器（每台 {per_node} 张），共 {gpus} 张。",
    },
    "note.range": {
        "en": "{gpus} GPUs is outside the {low}–{high} range the tool is tuned for; figures follow the same model.",
        "zh": "{gpus} 张 GPU 超出本工具重点范围（{low}–{high}）；数值仍按同一模型计算。",
    },
    "note.bound": {
        "en": "All-reduce is bounded by the {allreduce} (scale-up {scale_up} GB/s vs network {network} GB/s); "
        "all-to-all by the {alltoall}.",
        "zh": "All-reduce 受限于{allreduce}（节点内 {scale_up} GB/s，网络 {network} GB/s）；All-to-all 受限于{alltoall}。",
    },
    "note.engine_notes": {
        "en": "Further model notes (engine, English)",
        "zh": "其他模型说明（引擎原文，英文）",
    },
    # --- compare -------------------------------------------------------------------------
    "compare.same_gpu": {
        "en": "{count} designs on the same scenario, each with {gpu}.",
        "zh": "{count} 个方案使用相同场景，均采用 {gpu}。",
    },
    "compare.table_caption": {
        "en": "Green cells: the best design for that metric (ties share the mark).",
        "zh": "绿色单元格：该指标下最优的方案（并列时同时标记）。",
    },
    "compare.radar_caption": {
        "en": "Radar: each metric scaled so the best design scores 1 (for costs, power, latency and switches "
        "lower is better, so their scale is inverted).",
        "zh": "雷达图：各指标归一化，最优方案得 1 分（成本、功率、时延和交换机数量越低越好，已取倒数）。",
    },
    "compare.claims": {"en": "Vendor claims beside computed figures", "zh": "厂商宣称与模型计算对照"},
    "compare.claims_caption": {
        "en": "Vendor claims from the source document: not used in any calculation and not independently verified.",
        "zh": "以下为源文档中的厂商宣称：未用于任何计算，也未经独立验证。",
    },
    "compare.no_claims": {
        "en": "No design in this comparison carries vendor claims.",
        "zh": "本次对比的方案均无厂商宣称。",
    },
    "claim.computed.latency": {
        "en": "{change} vs InfiniBand ({ours} vs {theirs} ns, worst path)",
        "zh": "较 InfiniBand {change}（最长路径 {ours} 对 {theirs} ns）",
    },
    "claim.computed.power": {
        "en": "{change} vs InfiniBand ({ours} vs {theirs} kW IT power, whole cluster)",
        "zh": "较 InfiniBand {change}（整集群 IT 功率 {ours} 对 {theirs} kW）",
    },
    "claim.computed.port_speed": {
        "en": "Not modelled per lane: {speed} Gb/s per port vs {base} Gb/s per InfiniBand port",
        "zh": "模型不按通道计算：每端口 {speed} Gb/s，InfiniBand 每端口 {base} Gb/s",
    },
    "claim.computed.no_baseline": {
        "en": "No InfiniBand design in the comparison",
        "zh": "对比中没有 InfiniBand 方案",
    },
    "claim.computed.not_modelled": {"en": "Not modelled", "zh": "模型未涉及"},
    "claim_status.not verified": {"en": "Vendor claim, not verified", "zh": "厂商宣称，未经验证"},
    "claim_status.consistent": {"en": "Consistent with the model", "zh": "与模型结果一致"},
    "claim_status.verified": {"en": "Verified", "zh": "已验证"},
    # --- scaling -------------------------------------------------------------------------
    "scaling.caption": {
        "en": "Every design from 8 to 1024 GPUs with {gpu}; the red line marks the current {gpus} GPUs, "
        "diamonds mark crossovers.",
        "zh": "所有方案在 8 至 1024 张 {gpu} 范围内的表现；红线为当前的 {gpus} 张，菱形标记为交叉点。",
    },
    "scaling.crossovers": {"en": "Crossovers", "zh": "交叉点"},
    "scaling.no_crossovers": {
        "en": "No design overtakes another in this range.",
        "zh": "此范围内各方案之间没有交叉。",
    },
    "hover.crossover": {
        "en": "From {gpus} GPUs {better} is better than {other}",
        "zh": "自 {gpus} 张 GPU 起，{better} 优于 {other}",
    },
    # --- topology ------------------------------------------------------------------------
    "topology.tiers": {"en": "Switches and ports per tier", "zh": "各层交换机与端口"},
    "topology.media": {"en": "Links and media", "zh": "链路与介质"},
    "topology.racks": {"en": "Rack layout", "zh": "机柜布局"},
    "topology.latency": {"en": "Latency breakdown", "zh": "时延构成"},
    "topo.plane_label": {
        "en": "Plane 1 of {planes} (all planes identical)",
        "zh": "第 1 个平面，共 {planes} 个（各平面相同）",
    },
    "topo.single_plane": {"en": "Single plane", "zh": "单平面"},
    "topo.tier": {
        "en": "<b>{tier}</b>: {per_plane} per plane<br>{total} in total · {radix} × {speed}G ports",
        "zh": "<b>{tier}</b>：每平面 {per_plane} 台<br>共 {total} 台 · {radix} × {speed}G 端口",
    },
    "topo.nodes": {
        "en": "<b>Servers</b>: {nodes} × {per_node} GPUs = {gpus}<br>{ports} ports per server on each plane",
        "zh": "<b>服务器</b>：{nodes} × {per_node} GPU = {gpus}<br>每台服务器在每个平面 {ports} 个端口",
    },
    "topo.links": {
        "en": "{links} links ({per_plane} per plane)<br>{speed}G · {medium} · {length} m",
        "zh": "{links} 条链路（每平面 {per_plane} 条）<br>{speed}G · {medium} · {length} m",
    },
    "topo.aux": {
        "en": "Also sized: storage {storage} units on {storage_switches} storage switches; "
        "management {inband} in-band + {oob} out-of-band switches",
        "zh": "另含：存储 {storage} 台，存储网络交换机 {storage_switches} 台；管理网络带内 {inband} 台、带外 {oob} 台交换机",
    },
    "rack.compute_contents": {
        "en": "{nodes} servers ({gpus} GPUs)",
        "zh": "{nodes} 台服务器（{gpus} 张 GPU）",
    },
    "rack.network_contents": {
        "en": "{switches} fabric switches, {storage} storage units, {storage_switches} storage and {mgmt} management "
        "switches, shared over the network racks",
        "zh": "{switches} 台计算网络交换机、{storage} 台存储、{storage_switches} 台存储交换机和 {mgmt} 台管理交换机，分布于网络机柜",
    },
    "rack.limit": {"en": "rack limit {kw} kW", "zh": "机柜上限 {kw} kW"},
    "rack.cooling_limit": {"en": "cooling limit {kw} kW", "zh": "散热上限 {kw} kW"},
    "rack_kind.compute": {"en": "Compute rack", "zh": "计算机柜"},
    "rack_kind.network": {"en": "Network and storage rack", "zh": "网络与存储机柜"},
    # --- BOM -----------------------------------------------------------------------------
    "bom.lines": {"en": "BOM lines", "zh": "物料条目"},
    "bom.hardware": {"en": "Hardware (before cooling and services)", "zh": "硬件（不含散热与服务）"},
    "bom.caption": {
        "en": "Edit a unit price [USD] to recompute everything with it; services and cooling lines follow from other lines.",
        "zh": "修改单价 [美元] 后将据此重新计算全部结果；服务与散热条目由其他条目推导，不可直接修改。",
    },
    "bom.download_csv": {"en": "Download BOM (CSV)", "zh": "下载物料清单 (CSV)"},
    "bom.reset_prices": {"en": "Reset {count} edited price(s)", "zh": "恢复 {count} 项已修改的单价"},
    "bom.overrides": {"en": "Edited prices: {items}", "zh": "已修改的单价：{items}"},
    "help.unit_price": {
        "en": "Unit price in USD; edit to override the catalog.",
        "zh": "以美元计的单价；修改后覆盖目录价格。",
    },
    # --- catalog -------------------------------------------------------------------------
    "catalog.caption": {
        "en": "Every figure has a source and date, or is marked as an assumption with a reason.",
        "zh": "每项数据都注明来源与日期，或标记为假设并说明理由。",
    },
    "catalog.family": {"en": "Component family", "zh": "组件类别"},
    "catalog.records": {"en": "{count} records", "zh": "共 {count} 条记录"},
    "catalog.reference": {"en": "Field reference", "zh": "字段说明"},
    "catalog.reference_caption": {
        "en": "Rendered from the catalog schema: type, unit, allowed range, default and meaning of each field "
        "(descriptions as written in the schema).",
        "zh": "由目录模式自动生成：各字段的类型、单位、允许范围、默认值与含义（说明为模式原文）。",
    },
    "catalog.upload": {"en": "Catalog override", "zh": "目录覆盖文件"},
    "catalog.upload_caption": {
        "en": "A YAML or JSON file with family sections (gpus, switches, ...): a record with an existing id "
        "changes the given fields, a new id adds a record. Applies to this session only.",
        "zh": "YAML 或 JSON 文件，按类别分节（gpus、switches 等）：已有 id 的记录仅修改所给字段，新 id 则新增记录。仅对当前会话生效。",
    },
    "catalog.upload_label": {"en": "Upload a catalog override", "zh": "上传目录覆盖文件"},
    "catalog.upload_error": {"en": "File rejected: {message}", "zh": "文件未被接受：{message}"},
    "catalog.override_active": {
        "en": "Catalog override in use: {name}",
        "zh": "正在使用目录覆盖文件：{name}",
    },
    "catalog.remove_override": {"en": "Remove the override", "zh": "移除覆盖文件"},
    # --- assumptions ---------------------------------------------------------------------
    "assumptions.intro": {
        "en": "Every catalog record and model constant behind the current numbers, with its source or the reason "
        "it was assumed (texts as written in the catalog).",
        "zh": "当前结果所依据的全部目录记录与模型常数，附来源或假设理由（文字为目录原文）。",
    },
    "assumptions.filter": {"en": "Show", "zh": "显示"},
    "assumptions.all": {"en": "All", "zh": "全部"},
    "assumptions.caption": {
        "en": "{sources} cited sources, {assumptions} assumptions.",
        "zh": "{sources} 项引用来源，{assumptions} 项假设。",
    },
    "assumptions.download_scenario": {"en": "Download scenario (JSON)", "zh": "下载场景 (JSON)"},
    "assumption_kind.assumption": {"en": "Assumption", "zh": "假设"},
    "assumption_kind.source": {"en": "Source", "zh": "来源"},
    # --- table columns -------------------------------------------------------------------
    "col.metric": {"en": "Metric", "zh": "指标"},
    "col.design": {"en": "Design", "zh": "方案"},
    "col.claim": {"en": "Vendor claim", "zh": "厂商宣称"},
    "col.claimed": {"en": "Claimed", "zh": "宣称值"},
    "col.computed": {"en": "Computed by this model", "zh": "本模型计算结果"},
    "col.status": {"en": "Status", "zh": "状态"},
    "col.tier": {"en": "Tier", "zh": "层级"},
    "col.per_plane": {"en": "Switches per plane", "zh": "每平面交换机"},
    "col.switches": {"en": "Switches", "zh": "交换机总数"},
    "col.ports_used": {"en": "Ports used", "zh": "已用端口"},
    "col.ports_free": {"en": "Ports free", "zh": "空闲端口"},
    "col.link_class": {"en": "Link", "zh": "链路"},
    "col.links": {"en": "Links", "zh": "链路数"},
    "col.length_m": {"en": "Length [m]", "zh": "长度 [m]"},
    "col.medium": {"en": "Medium", "zh": "介质"},
    "col.cable": {"en": "Cable", "zh": "线缆"},
    "col.optics_lower": {"en": "Optics, lower end", "zh": "下端光学器件"},
    "col.optics_upper": {"en": "Optics, upper end", "zh": "上端光学器件"},
    "col.rack_kind": {"en": "Rack", "zh": "机柜类型"},
    "col.count": {"en": "Count", "zh": "数量"},
    "col.contents": {"en": "Contents (each rack)", "zh": "内容（每柜）"},
    "col.kw_per_rack": {"en": "Power per rack [kW]", "zh": "单柜功率 [kW]"},
    "col.limit_kw": {"en": "Limit [kW]", "zh": "上限 [kW]"},
    "col.within_limit": {"en": "Within limit", "zh": "未超限"},
    "col.between": {"en": "Designs", "zh": "方案"},
    "col.gpus_range": {"en": "Between [GPUs]", "zh": "区间 [GPU 数]"},
    "col.better_after": {"en": "Better from there", "zh": "此后更优"},
    "col.kind": {"en": "Kind", "zh": "类型"},
    "col.topic": {"en": "Topic", "zh": "主题"},
    "col.text": {"en": "What", "zh": "内容"},
    "col.source": {"en": "Source", "zh": "来源"},
    "col.category": {"en": "Category", "zh": "类别"},
    "col.description": {"en": "Item", "zh": "物料"},
    "col.quantity": {"en": "Quantity", "zh": "数量"},
    "col.unit_price_usd": {"en": "Unit price [USD] ✎", "zh": "单价 [美元] ✎"},
    "col.total_usd": {"en": "Total [USD]", "zh": "小计 [美元]"},
    "col.total_in": {"en": "Total [{currency}]", "zh": "小计 [{currency}]"},
    "col.field": {"en": "Field", "zh": "字段"},
    "col.type": {"en": "Type", "zh": "类型"},
    "col.unit": {"en": "Unit", "zh": "单位"},
    "col.range": {"en": "Allowed range", "zh": "允许范围"},
    "col.required": {"en": "Required / default", "zh": "必填 / 默认值"},
    "col.description_field": {"en": "Meaning", "zh": "含义"},
    "word.required": {"en": "required", "zh": "必填"},
    "word.default": {"en": "default", "zh": "默认"},
    # --- charts --------------------------------------------------------------------------
    "chart.cost_by_category": {"en": "CAPEX by category", "zh": "CAPEX 分类构成"},
    "chart.power_by_category": {"en": "IT power by category (max)", "zh": "IT 功率构成（峰值）"},
    "chart.busbw_curve": {"en": "busbw vs message size", "zh": "总线带宽与消息大小"},
    "chart.latency_breakdown": {
        "en": "Worst-case GPU-to-GPU latency: {total} ns",
        "zh": "最长路径 GPU 间时延：{total} ns",
    },
    "chart.compare_bars": {
        "en": "Cost, power, bandwidth and latency by design",
        "zh": "各方案的成本、功率、带宽与时延",
    },
    "chart.cost_stack": {"en": "CAPEX by category", "zh": "CAPEX 分类构成"},
    "chart.radar": {"en": "Normalized scores (1 = best)", "zh": "归一化得分（1 = 最优）"},
    "chart.topology": {
        "en": "Compute fabric: {tiers} tier(s), {planes} plane(s), {rails} rail(s), {switches} switches",
        "zh": "计算网络：{tiers} 层、{planes} 个平面、{rails} 条轨道、{switches} 台交换机",
    },
    "chart.racks": {
        "en": "Power per rack: {compute} compute racks ({per_rack} servers each when full), {network} network racks",
        "zh": "单柜功率：{compute} 个计算机柜（满柜 {per_rack} 台服务器），{network} 个网络机柜",
    },
    "axis.amount": {"en": "Amount [{unit}]", "zh": "金额 [{unit}]"},
    "axis.busbw": {"en": "busbw [GB/s]", "zh": "总线带宽 [GB/s]"},
    "axis.message_size": {"en": "Message size", "zh": "消息大小"},
    "axis.gpus": {"en": "GPUs", "zh": "GPU 数量"},
    "axis.racks": {"en": "Rack (C = compute, N = network)", "zh": "机柜（C = 计算，N = 网络）"},
    "group.cost": {"en": "Cost", "zh": "成本"},
    "group.power": {"en": "Power", "zh": "功率"},
    "group.bandwidth": {"en": "busbw", "zh": "总线带宽"},
    "group.latency": {"en": "Latency", "zh": "时延"},
    "word.capex": {"en": "CAPEX", "zh": "CAPEX"},
    "word.tco": {"en": "TCO", "zh": "TCO"},
    "word.it_power": {"en": "IT", "zh": "IT"},
    "word.facility_power": {"en": "Facility", "zh": "设施"},
    "word.allreduce": {"en": "all-reduce", "zh": "all-reduce"},
    "word.alltoall": {"en": "all-to-all", "zh": "all-to-all"},
    "word.latency_min": {"en": "same leaf", "zh": "同一 Leaf"},
    "word.latency_max": {"en": "worst path", "zh": "最长路径"},
    "word.worst_path": {"en": "{hops} switch hops", "zh": "{hops} 跳交换"},
    "word.lower_better": {"en": "lower is better", "zh": "越低越好"},
    "word.higher_better": {"en": "higher is better", "zh": "越高越好"},
    "word.count": {"en": "count", "zh": "数量"},
    "unit.money": {"en": "{money}", "zh": "{money}"},
    "unit.money_per_year": {"en": "{money}/year", "zh": "{money}/年"},
    "unit.money_per_gpu_hour": {"en": "{money}/GPU-hour", "zh": "{money}/GPU·小时"},
    "unit.money_per_gbyte_per_s": {"en": "{money} per GB/s", "zh": "{money}/(GB/s)"},
    # --- engine enumerations -------------------------------------------------------------
    "metric.gpus": {"en": "GPUs", "zh": "GPU 数量"},
    "metric.nodes": {"en": "Nodes", "zh": "节点数"},
    "metric.racks": {"en": "Racks", "zh": "机柜数"},
    "metric.tiers": {"en": "Switch tiers", "zh": "交换层数"},
    "metric.switches": {"en": "Fabric switches", "zh": "计算网络交换机"},
    "metric.transceivers": {"en": "Optical ends (modules + NPO ports)", "zh": "光学端口（模块 + NPO 端口）"},
    "metric.per_gpu_gbit_per_s": {"en": "Bandwidth per GPU", "zh": "每 GPU 带宽"},
    "metric.allreduce_busbw_gbyte_per_s": {"en": "All-reduce busbw", "zh": "All-reduce 总线带宽"},
    "metric.alltoall_busbw_gbyte_per_s": {"en": "All-to-all busbw", "zh": "All-to-all 总线带宽"},
    "metric.gpu_to_gpu_ns": {"en": "Worst GPU-to-GPU latency", "zh": "最大 GPU 间时延"},
    "metric.it_kw": {"en": "IT power", "zh": "IT 功率"},
    "metric.facility_kw": {"en": "Facility power", "zh": "设施总功率"},
    "metric.kw_per_gpu": {"en": "IT power per GPU", "zh": "每 GPU IT 功率"},
    "metric.capex_usd": {"en": "CAPEX", "zh": "建设投资 (CAPEX)"},
    "metric.usd_per_gpu": {"en": "CAPEX per GPU", "zh": "每 GPU 投资"},
    "metric.network_capex_usd": {"en": "Network CAPEX", "zh": "网络投资"},
    "metric.opex_usd_per_year": {"en": "OPEX", "zh": "年运营成本 (OPEX)"},
    "metric.tco_usd": {"en": "TCO", "zh": "总拥有成本 (TCO)"},
    "metric.usd_per_gpu_hour": {"en": "Cost per GPU-hour", "zh": "每 GPU 小时成本"},
    "metric.usd_per_alltoall_gbyte_per_s": {
        "en": "CAPEX per unit of all-to-all bandwidth",
        "zh": "单位 All-to-all 带宽投资",
    },
    "metric.design": {"en": "Design", "zh": "方案"},
    "bom_category.gpus": {"en": "GPUs", "zh": "GPU"},
    "bom_category.servers": {"en": "Servers", "zh": "服务器"},
    "bom_category.nics": {"en": "Network adapters", "zh": "网卡"},
    "bom_category.fabric_switches": {"en": "Fabric switches", "zh": "计算网络交换机"},
    "bom_category.optics": {"en": "Optics", "zh": "光模块 / 光引擎"},
    "bom_category.cables": {"en": "Cables", "zh": "线缆"},
    "bom_category.storage": {"en": "Storage", "zh": "存储"},
    "bom_category.management": {"en": "Management network", "zh": "管理网络"},
    "bom_category.racks_power": {"en": "Racks and PDUs", "zh": "机柜与配电"},
    "bom_category.cooling": {"en": "Cooling", "zh": "散热"},
    "bom_category.services": {"en": "Installation and spares", "zh": "安装集成与备件"},
    "power_category.gpus": {"en": "GPUs", "zh": "GPU"},
    "power_category.servers": {"en": "Servers (CPU, memory, fans)", "zh": "服务器（CPU、内存、风扇）"},
    "power_category.nics": {"en": "Network adapters", "zh": "网卡"},
    "power_category.fabric_switches": {"en": "Fabric switches", "zh": "计算网络交换机"},
    "power_category.optics": {"en": "Optics", "zh": "光学器件"},
    "power_category.storage": {"en": "Storage", "zh": "存储"},
    "power_category.management": {"en": "Management network", "zh": "管理网络"},
    "tier.leaf": {"en": "Leaf", "zh": "Leaf（接入层）"},
    "tier.spine": {"en": "Spine", "zh": "Spine（汇聚层）"},
    "tier.core": {"en": "Core", "zh": "Core（核心层）"},
    "link_class.node_leaf": {"en": "Server – leaf", "zh": "服务器 – Leaf"},
    "link_class.leaf_spine": {"en": "Leaf – spine", "zh": "Leaf – Spine"},
    "link_class.spine_core": {"en": "Spine – core", "zh": "Spine – Core"},
    "latency_component.host_nic": {"en": "Host and NIC", "zh": "主机与网卡"},
    "latency_component.serdes_fec": {"en": "SerDes + FEC", "zh": "SerDes 与 FEC 编解码"},
    "latency_component.optics_and_propagation": {"en": "Optics and propagation", "zh": "光学器件与传播"},
    "latency_component.switches": {"en": "Switch hops", "zh": "交换机转发"},
    "level.scale-up": {"en": "scale-up level", "zh": "节点内互联（scale-up）"},
    "level.network": {"en": "network level", "zh": "网络（scale-out）"},
    "medium.npo": {"en": "NPO optics", "zh": "NPO 近封装光学"},
    "medium.cpo": {"en": "CPO optics", "zh": "CPO 共封装光学"},
    "medium.mmf": {"en": "multimode fiber", "zh": "多模光纤"},
    "medium.smf": {"en": "single-mode fiber", "zh": "单模光纤"},
    "medium.fiber_mmf": {"en": "multimode fiber", "zh": "多模光纤"},
    "medium.fiber_smf": {"en": "single-mode fiber", "zh": "单模光纤"},
    "medium.dac": {"en": "copper DAC", "zh": "无源铜缆 (DAC)"},
    "medium.acc": {"en": "active copper (ACC)", "zh": "有源铜缆 (ACC)"},
    "medium.aec": {"en": "active electrical (AEC)", "zh": "有源电缆 (AEC)"},
    "medium.lpo": {"en": "LPO optics", "zh": "LPO 线性直驱光模块"},
    "medium.pluggable": {"en": "pluggable optics", "zh": "可插拔光模块"},
    "family.gpus": {"en": "GPUs", "zh": "GPU"},
    "family.servers": {"en": "Servers", "zh": "服务器"},
    "family.nics": {"en": "Network adapters", "zh": "网卡"},
    "family.switches": {"en": "Switches", "zh": "交换机"},
    "family.optics": {"en": "Optics", "zh": "光学器件"},
    "family.cables": {"en": "Cables", "zh": "线缆"},
    "family.racks": {"en": "Racks", "zh": "机柜"},
    "family.pdus": {"en": "PDUs", "zh": "配电单元 (PDU)"},
    "family.cooling": {"en": "Cooling", "zh": "散热"},
    "family.storage": {"en": "Storage", "zh": "存储"},
    "family.energy_prices": {"en": "Electricity prices", "zh": "电价"},
    "family.exchange_rates": {"en": "Exchange rates", "zh": "汇率"},
    "family.cost_factors": {"en": "Cost factors", "zh": "成本系数"},
    "family.sizing_rules": {"en": "Sizing rules", "zh": "配置规则"},
    "family.designs": {"en": "Network designs", "zh": "网络方案"},
}


def _merged(*tables: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """One table from several; a key defined twice is a bug (tests/test_i18n.py sees the raise)."""
    merged: dict[str, dict[str, str]] = {}
    for table in tables:
        clash = set(merged) & set(table)
        if clash:
            raise ValueError(f"i18n keys defined twice: {sorted(clash)}")
        merged.update(table)
    return merged


# Screens added later keep their strings in their own module (same shape, pure), merged here.
from planner.i18n.analysis_strings import STRINGS as ANALYSIS_STRINGS  # noqa: E402
from planner.i18n.export_strings import STRINGS as EXPORT_STRINGS  # noqa: E402

STRINGS: dict[str, dict[str, str]] = _merged(CORE_STRINGS, ANALYSIS_STRINGS, EXPORT_STRINGS)
"""Every UI string: key -> {"en": ..., "zh": ...}."""


def tr(key: str, lang: str, **params: Any) -> str:
    """The string ``key`` in ``lang`` with ``{params}`` filled; ``[key]`` when it is missing.

    >>> tr("page.overview", "zh"), tr("kpi.tco", "en", years=5)
    ('概览', 'TCO over 5 years')
    """
    entry = STRINGS.get(key)
    template = entry.get(lang) if entry else None
    if template is None:
        MISSING.add(f"{key}:{lang}")
        return f"[{key}]"
    return template.format(**params) if params else template


def tr_enum(group: str, value: str, lang: str) -> str:
    """The label of an engine enumeration value (a category, tier, unit ...)."""
    return tr(f"{group}.{value}", lang)
