"""UI strings of the proposal export (PDF/CSV/XLSX) and the Proposal page, English and Chinese (pure: no Streamlit).

Merged into :data:`planner.i18n.STRINGS`; the same rules and tests apply (tests/test_i18n.py).
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    # --- page and form ---------------------------------------------------------------------
    "page.proposal": {"en": "Proposal", "zh": "方案建议书"},
    "export.page_intro": {
        "en": "A proposal the customer can read and files procurement can load, from the current scenario. "
        "Fill in the details, build, check the preview, then download.",
        "zh": "基于当前场景生成客户可阅读的方案建议书，以及采购可直接导入的文件。填写信息并生成，检查预览后下载。",
    },
    "export.form.title": {"en": "Proposal details", "zh": "建议书信息"},
    "export.form.customer": {"en": "Customer", "zh": "客户名称"},
    "export.form.project": {"en": "Project", "zh": "项目名称"},
    "export.form.author": {"en": "Prepared by", "zh": "编制人"},
    "export.form.version": {"en": "Version", "zh": "版本"},
    "export.form.date": {"en": "Date", "zh": "日期"},
    "export.form.notes": {"en": "Notes for the cover page", "zh": "封面备注"},
    "export.form.lang": {"en": "Document language", "zh": "文档语言"},
    "export.form.edition": {"en": "Edition", "zh": "版本类型"},
    "export.form.margin": {"en": "Margin on cost [fraction]", "zh": "成本加成率 [小数]"},
    "export.form.discount": {"en": "Discount off list price [fraction]", "zh": "折扣率 [小数]"},
    "export.form.logo": {"en": "Logo (PNG or JPEG, optional)", "zh": "标志图片（PNG 或 JPEG，可选）"},
    "export.form.designs": {"en": "Designs compared", "zh": "参与对比的方案"},
    "export.form.proposed": {"en": "Design proposed", "zh": "建议方案"},
    "export.form.by_rule": {
        "en": "By the rule (lowest price per GPU-hour)",
        "zh": "按规则选择（每 GPU 小时价格最低）",
    },
    "export.form.build": {"en": "Build proposal", "zh": "生成建议书"},
    "help.export.margin": {
        "en": "Selling price = cost × (1 + margin), 0 to 3. Only the internal edition shows cost and margin.",
        "zh": "售价 = 成本 × (1 + 加成率)，范围 0 至 3。只有内部版显示成本与加成。",
    },
    "help.export.discount": {
        "en": "Offered price = list price × (1 − discount), 0 to 0.9.",
        "zh": "报价 = 目录售价 × (1 − 折扣率)，范围 0 至 0.9。",
    },
    "help.export.edition": {
        "en": "Customer: offered prices only, no internal cost anywhere. Internal: cost, margin and discount.",
        "zh": "客户版：仅含报价，不含任何内部成本。内部版：含成本、加成与折扣。",
    },
    "export.building": {"en": "Building the proposal…", "zh": "正在生成建议书……"},
    "export.preview": {"en": "Preview: first pages", "zh": "预览：前几页"},
    "export.preview_caption": {
        "en": "{pages} pages in all · built in {seconds} s",
        "zh": "共 {pages} 页 · 用时 {seconds} 秒",
    },
    "export.preview_missing": {
        "en": "Preview unavailable (pdftoppm from poppler-utils is not installed); the PDF is fine.",
        "zh": "无法预览（未安装 poppler-utils 的 pdftoppm），PDF 本身正常。",
    },
    "export.downloads": {"en": "Downloads", "zh": "下载"},
    "export.download.pdf": {"en": "Proposal (PDF)", "zh": "建议书 (PDF)"},
    "export.download.csv": {"en": "BOM (CSV)", "zh": "物料清单 (CSV)"},
    "export.download.xlsx": {"en": "Workbook (XLSX)", "zh": "工作簿 (XLSX)"},
    "export.download.json": {"en": "Scenario (JSON)", "zh": "场景 (JSON)"},
    "export.files_caption": {
        "en": "CSV and XLSX follow the edition chosen above; the scenario JSON reopens this exact scenario "
        "(it carries any edited unit prices).",
        "zh": "CSV 与 XLSX 按上方所选版本类型生成；场景 JSON 可重新打开完全相同的场景（含已修改的单价）。",
    },
    "export.pdf_pending": {
        "en": "Build the proposal to preview and download the PDF.",
        "zh": "生成建议书后即可预览并下载 PDF。",
    },
    "export.error": {"en": "Could not build the proposal: {message}", "zh": "无法生成建议书：{message}"},
    "export.stale": {
        "en": "The scenario or the details changed since this PDF was built: build again to update it.",
        "zh": "生成此 PDF 后场景或信息已更改，请重新生成。",
    },
    # --- document: cover and footer -----------------------------------------------------------
    "export.kicker": {"en": "Solution proposal", "zh": "解决方案建议书"},
    "export.doc_title": {"en": "GPU cluster network proposal", "zh": "GPU 集群网络方案建议书"},
    "export.subtitle": {
        "en": "{gpus} × {gpu} · {design}",
        "zh": "{gpus} 张 {gpu} · {design}",
    },
    "export.meta.customer": {"en": "Customer", "zh": "客户"},
    "export.meta.project": {"en": "Project", "zh": "项目"},
    "export.meta.author": {"en": "Prepared by", "zh": "编制人"},
    "export.meta.date": {"en": "Date", "zh": "日期"},
    "export.meta.version": {"en": "Version", "zh": "版本"},
    "export.meta.scope": {"en": "Scope", "zh": "规模"},
    "export.meta.scope_value": {
        "en": "{gpus} GPUs in {nodes} servers and {racks} racks",
        "zh": "{gpus} 张 GPU，{nodes} 台服务器，{racks} 个机柜",
    },
    "export.notes": {"en": "Notes", "zh": "备注"},
    "export.edition.customer": {"en": "Customer edition", "zh": "客户版"},
    "export.edition.internal": {"en": "Internal edition", "zh": "内部版"},
    "export.edition_note.customer": {
        "en": "Prices are offered prices in {currency}. Figures are computed by GPU Cluster Planner from "
        "catalog data and the assumptions listed at the end; they are estimates, not measurements.",
        "zh": "价格为以{currency}计的报价。各项数据由 GPU 集群规划器根据组件目录和文末所列假设计算得出，"
        "为估算值而非实测值。",
    },
    "export.edition_note.internal": {
        "en": "Shows cost, margin and discount. For internal use only: send the customer edition to customers.",
        "zh": "包含成本、加成与折扣，仅供内部使用；对客户请发送客户版。",
    },
    "export.confidential": {"en": "INTERNAL · CONFIDENTIAL", "zh": "内部资料 · 严禁外发"},
    "export.footer_page": {"en": "Page {page} of {pages}", "zh": "第 {page} 页 / 共 {pages} 页"},
    # --- document: sections --------------------------------------------------------------------
    "export.sec.summary": {"en": "Executive summary", "zh": "执行摘要"},
    "export.sec.compare": {"en": "Design comparison", "zh": "方案对比"},
    "export.sec.topology": {"en": "Network topology and cabling", "zh": "网络拓扑与布线"},
    "export.sec.bom": {"en": "Bill of materials", "zh": "物料清单"},
    "export.sec.power": {"en": "Power and cooling", "zh": "供电与散热"},
    "export.sec.cost": {"en": "Cost and TCO", "zh": "投资与总拥有成本"},
    "export.sec.assumptions": {"en": "Assumptions and sources", "zh": "假设与来源"},
    # --- executive summary --------------------------------------------------------------------
    "export.summary.recommend": {
        "en": "We recommend {design} for {gpus} × {gpu}.",
        "zh": "建议采用{design}，配置 {gpus} 张 {gpu}。",
    },
    "export.summary.proposed": {
        "en": "This proposal details {design} for {gpus} × {gpu}.",
        "zh": "本建议书详述{design}，配置 {gpus} 张 {gpu}。",
    },
    "export.summary.rule": {
        "en": "Why: of the {count} designs compared on the same scenario and GPU, it has the lowest price "
        "per GPU-hour ({value}). That is the rule this proposal applies: CAPEX as an annuity over {years} "
        "years at {rate} a year, plus yearly OPEX, divided by the GPU-hours delivered at {util} "
        "utilization. Only designs whose racks the chosen cooling can handle are eligible.",
        "zh": "理由：在相同场景与 GPU 下对比的 {count} 个方案中，该方案每 GPU 小时价格最低（{value}）。"
        "本建议书采用的规则为：CAPEX 按 {years} 年、年折现率 {rate} 折算为年金，加上年度运营成本，"
        "再除以 {util} 利用率下交付的 GPU 小时数；仅考虑所选散热方式能支撑其机柜功率密度的方案。",
    },
    "export.summary.runner_up": {
        "en": "Next: {design} at {value}, {delta} more per GPU-hour.",
        "zh": "次优：{design}，{value}，每 GPU 小时高 {delta}。",
    },
    "export.summary.override": {
        "en": "The design proposed was chosen by the architect; by the rule above {best} would be {delta} "
        "lower per GPU-hour ({value}).",
        "zh": "建议方案由架构师指定；按上述规则，{best}每 GPU 小时价格可低 {delta}（{value}）。",
    },
    "export.summary.single": {
        "en": "One design was compared; it is proposed as configured.",
        "zh": "仅对比了一个方案，按当前配置提出建议。",
    },
    "export.summary.excluded": {
        "en": "Not eligible: {design}. Its densest rack draws {kw} kW, above the {limit} kW the chosen cooling handles.",
        "zh": "不符合条件：{design}。其最高功率机柜为 {kw} kW，超过所选散热方式可支撑的 {limit} kW。",
    },
    "export.summary.none_eligible": {
        "en": "No design's racks fit the chosen cooling; the rule was applied to all designs. "
        "Choose a denser cooling method or a lower rack power limit.",
        "zh": "所有方案的机柜功率密度均超出所选散热方式的能力，规则已应用于全部方案。请选择更强的散热方式或降低单机柜功率上限。",
    },
    "export.summary.key_numbers": {"en": "Key numbers of the proposed design", "zh": "建议方案关键指标"},
    "export.summary.glance": {"en": "Designs at a glance", "zh": "各方案概览"},
    "export.summary.bandwidth": {"en": "Bandwidth", "zh": "带宽"},
    # --- comparison, topology --------------------------------------------------------------
    "export.cabling": {"en": "Cabling sheet", "zh": "布线表"},
    "export.cabling_caption": {
        "en": "One cable per link; an optical link has a transceiver (or an NPO/CPO port) at each end. "
        "Lengths are the scenario's per-tier defaults.",
        "zh": "每条链路一根线缆；光链路两端各一个光模块（或 NPO/CPO 端口）。长度为场景中各层的默认值。",
    },
    # --- BOM ---------------------------------------------------------------------------------
    "export.bom.by_category": {"en": "By category", "zh": "分类汇总"},
    "export.bom.lines": {"en": "All lines", "zh": "明细"},
    "export.bom.subtotal": {"en": "Subtotal", "zh": "小计"},
    "export.bom.total": {"en": "Total", "zh": "合计"},
    "export.bom.caption": {
        "en": "Amounts in {currency}, rounded to the cent per unit and per line; the CSV and XLSX files "
        "hold the same lines and the same total.",
        "zh": "金额单位：{currency}，单价与每行金额精确到分；CSV 与 XLSX 文件包含相同的明细与合计。",
    },
    "export.col.line": {"en": "No.", "zh": "序号"},
    "export.col.amount": {"en": "Amount [{currency}]", "zh": "金额 [{currency}]"},
    "export.col.share": {"en": "Share", "zh": "占比"},
    "export.col.unit_price": {"en": "Unit price [{currency}]", "zh": "单价 [{currency}]"},
    "export.col.unit_cost": {"en": "Unit cost [{currency}]", "zh": "单位成本 [{currency}]"},
    "export.col.cost_amount": {"en": "Amount at cost [{currency}]", "zh": "成本金额 [{currency}]"},
    "export.col.customer": {"en": "Customer", "zh": "客户"},
    "export.col.project": {"en": "Project", "zh": "项目"},
    "export.col.version": {"en": "Version", "zh": "版本"},
    "export.col.currency": {"en": "Currency", "zh": "货币"},
    "export.col.category_id": {"en": "Category id", "zh": "类别代码"},
    "export.col.item_id": {"en": "Catalog id", "zh": "目录编号"},
    "export.col.margin": {"en": "Margin", "zh": "加成率"},
    "export.col.discount": {"en": "Discount", "zh": "折扣率"},
    # --- power and cooling -----------------------------------------------------------------------
    "export.power.it_max": {"en": "IT power at maximum load", "zh": "IT 功率（满载）"},
    "export.power.it_avg": {"en": "IT power at average load ({load})", "zh": "IT 功率（平均负载 {load}）"},
    "export.power.pue": {"en": "PUE", "zh": "PUE（电能利用效率）"},
    "export.power.facility": {"en": "Facility power at maximum load", "zh": "设施总功率（满载）"},
    "export.power.heat": {"en": "Heat load", "zh": "热负荷"},
    "export.power.liquid": {"en": "Heat removed by liquid", "zh": "液冷带走热量"},
    "export.power.air": {"en": "Heat removed by air", "zh": "风冷带走热量"},
    "export.power.coolant": {"en": "Coolant flow", "zh": "冷却液流量"},
    "export.power.airflow": {"en": "Airflow", "zh": "风量"},
    "export.power.cdus": {"en": "Coolant distribution units (N+1)", "zh": "冷却液分配单元 CDU（N+1）"},
    "export.power.racks": {"en": "Racks", "zh": "机柜"},
    "export.power.racks_value": {
        "en": "{total} ({compute} compute, {network} network)",
        "zh": "{total} 个（计算柜 {compute} 个，网络柜 {network} 个）",
    },
    "export.power.density": {"en": "Densest rack / cooling limit", "zh": "最高机柜功率 / 散热上限"},
    "export.power.ok": {"en": "within the limit", "zh": "满足要求"},
    "export.power.over": {"en": "above the limit", "zh": "超出上限"},
    # --- cost and TCO -------------------------------------------------------------------------
    "export.cost.capex": {"en": "CAPEX (one-off)", "zh": "一次性投资 (CAPEX)"},
    "export.cost.opex": {"en": "OPEX per year", "zh": "年运营成本 (OPEX)"},
    "export.cost.energy": {"en": "Energy", "zh": "电费"},
    "export.cost.maintenance": {"en": "Maintenance and support", "zh": "维保与支持"},
    "export.cost.space": {"en": "Space (colocation)", "zh": "机房空间（托管）"},
    "export.cost.tco": {
        "en": "TCO over {years} years (OPEX discounted at {rate} a year)",
        "zh": "{years} 年总拥有成本（OPEX 按年折现率 {rate} 折现）",
    },
    "export.cost.per_gpu": {"en": "CAPEX per GPU", "zh": "每 GPU 投资"},
    "export.cost.by_design": {"en": "Per design", "zh": "各方案对比"},
    "export.cost.discounted": {
        "en": "Offered prices include a {discount} discount on list prices.",
        "zh": "报价已含目录价 {discount} 的折扣。",
    },
    "export.commercial": {"en": "Commercial terms (internal)", "zh": "商务条款（内部）"},
    "export.commercial.cost": {"en": "Cost (CAPEX at cost)", "zh": "成本（按成本计的 CAPEX）"},
    "export.commercial.margin": {"en": "Margin on cost", "zh": "成本加成率"},
    "export.commercial.list": {"en": "List price", "zh": "目录售价"},
    "export.commercial.discount": {"en": "Discount off list price", "zh": "折扣率"},
    "export.commercial.net": {"en": "Offered price", "zh": "报价"},
    "export.commercial.profit": {"en": "Gross profit", "zh": "毛利"},
    "export.commercial.effective": {"en": "Gross margin on the offered price", "zh": "报价毛利率"},
    "export.commercial.below_cost": {
        "en": "The discount exceeds the margin: this offer is below cost.",
        "zh": "折扣超过加成：此报价低于成本。",
    },
    "export.commercial.by_category": {"en": "Cost and price by category", "zh": "各类别成本与价格"},
    # --- assumptions --------------------------------------------------------------------------
    "export.assumptions.scenario": {"en": "Scenario", "zh": "场景参数"},
    "export.assumptions.list": {
        "en": "Assumptions and sources behind the figures",
        "zh": "数据背后的假设与来源",
    },
    "export.assumptions.redacted": {
        "en": "Price references behind the catalog are not listed in this edition.",
        "zh": "本版本不列出组件目录所依据的价格来源。",
    },
    "export.disclaimer": {
        "en": "Figures come from an analytical model of the components in the catalog, not from measurements "
        "on this cluster. Vendor claims are shown beside the model's figures and are not used in any "
        "calculation.",
        "zh": "各项数据来自基于组件目录的解析模型，并非在此集群上的实测结果。厂商宣称的指标仅与模型结果并列展示，"
        "不参与任何计算。",
    },
    # --- workbook sheets -------------------------------------------------------------------------
    "export.sheet.proposal": {"en": "Proposal", "zh": "建议书信息"},
    "export.sheet.bom": {"en": "BOM", "zh": "物料清单"},
    "export.sheet.compare": {"en": "Design comparison", "zh": "方案对比"},
    "export.sheet.cabling": {"en": "Cabling", "zh": "布线表"},
    "export.sheet.assumptions": {"en": "Assumptions", "zh": "假设与来源"},
    "export.sheet.edition": {"en": "Edition", "zh": "版本类型"},
    "export.sheet.language": {"en": "Language", "zh": "语言"},
}
