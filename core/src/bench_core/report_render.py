"""The text of a ``bench report``: :func:`render_html` (one self-contained page) and :func:`render_markdown`.

The page fetches nothing: its style is inline, every image is a ``data:image/png;base64`` URL, and its
Content-Security-Policy allows images from data URLs only and no script, font or connection at all.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping
from typing import Any

from bench_core.report_figures import Table
from bench_core.report_page import Example, Page

#: Longest raw response shown with an example (the rest is cut, saying how much was cut).
RESPONSE_LIMIT = 1500

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #222;
       max-width: 1120px; margin: 1.5rem auto 4rem; padding: 0 1.2rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.6rem; border-bottom: 2px solid #e3e3e3; }
h3 { margin-top: 1.6rem; font-size: 1.05rem; }
.meta { color: #666; font-size: .9rem; } .meta code { font-size: .85rem; }
nav { font-size: .9rem; margin: 1rem 0; display: flex; flex-wrap: wrap; gap: .3rem 1.1rem; }
.kpis { display: flex; flex-wrap: wrap; gap: .8rem; margin: 1rem 0; }
.kpi { border: 1px solid #e0e0e0; border-radius: 6px; padding: .5rem .9rem; min-width: 8rem; }
.kpi b { display: block; font-size: 1.35rem; } .kpi span { color: #666; font-size: .8rem; }
.notes { color: #8a5a00; font-size: .9rem; }
table { border-collapse: collapse; font-size: .86rem; margin: .4rem 0 1.4rem; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { border-bottom: 1px solid #e6e6e6; padding: .22rem .65rem; text-align: right; vertical-align: top; }
th { background: #f5f5f5; } th.text, td.text { text-align: left; }
tbody tr:hover { background: #fafafa; }
figure { margin: 1.2rem 0 1.8rem; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .88rem; max-width: 60rem; }
details { margin: .3rem 0 1rem; } summary { cursor: pointer; color: #3b6ea8; font-size: .9rem; }
.examples { display: grid; grid-template-columns: repeat(auto-fit, minmax(330px, 1fr)); gap: 1rem; }
.card { border: 1px solid #dcdcdc; border-radius: 6px; padding: .7rem .9rem; overflow-wrap: anywhere; }
.card.right { border-top: 5px solid #4f9a59; } .card.wrong { border-top: 5px solid #c44e52; }
.card img { max-width: 100%; height: auto; border: 1px solid #eee; display: block; margin: .4rem 0; }
.card pre { white-space: pre-wrap; font-size: .8rem; background: #f6f6f6; padding: .45rem; max-height: 15rem;
            overflow: auto; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .7rem; font-size: .88rem; }
.card dt { color: #666; } .card dd { margin: 0; }
.verdict { font-weight: 700; } .right .verdict { color: #2f7a3b; } .wrong .verdict { color: #a83236; }
.missing { color: #a83236; font-style: italic; }
mark { background: #f6d0d0; padding: 0 .1rem; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def data_url(png: bytes) -> str:
    """``png`` as a ``data:image/png;base64,...`` URL."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def answer_text(value: Any, options: Any = None) -> str:
    """A parsed or gold answer for people: a token list joined by commas, a numbered option with its text
    (``2 (Rotation 180 degrees)``), a letter with its option's text when options are not letters."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    text = str(value)
    if options:
        options = list(options)
        letters = [chr(ord("A") + i) for i in range(len(options))]
        if options == letters:
            return text
        if text.isdigit() and 1 <= int(text) <= len(options):
            return f"{text} ({options[int(text) - 1]})"
        if text in letters:
            return f"{text} ({options[letters.index(text)]})"
    return text


def response_text(response: Any) -> str:
    """A raw response as text (JSON for a value that is not a string), cut to ``RESPONSE_LIMIT`` characters."""
    text = response if isinstance(response, str) else json.dumps(response, ensure_ascii=False, default=str)
    if len(text) > RESPONSE_LIMIT:
        return text[:RESPONSE_LIMIT] + f"\n... ({len(text) - RESPONSE_LIMIT} more characters)"
    return text


def first_difference(example: Example) -> int | None:
    """The first position where a parsed sequence differs from the gold one (or ends early), else None."""
    row = example.row
    if row.item.answer_type != "sequence" or not isinstance(row.parsed, (list, tuple)) or not row.answered:
        return None
    gold = [t.strip() for t in row.item.answer.split(",")]
    for k, token in enumerate(gold):
        if k >= len(row.parsed) or str(row.parsed[k]) != token:
            return k
    return None if len(row.parsed) == len(gold) else len(gold)


def _html_parsed(example: Example) -> str:
    """The parsed answer, a sequence's tokens that differ from the gold ones marked."""
    row = example.row
    if first_difference(example) is None:
        return _e(parsed_text(example))
    gold = [t.strip() for t in row.item.answer.split(",")]
    return ", ".join(_e(t) if k < len(gold) and str(t) == gold[k] else f"<mark>{_e(t)}</mark>"
                     for k, t in enumerate(row.parsed))


def parsed_text(example: Example) -> str:
    """What the model answered, in words: the parsed answer, or why there is none."""
    row = example.row
    if not row.has_response:
        return "no prediction for this item"
    if not row.answered or row.parsed is None:
        return "no answer could be parsed"
    return answer_text(row.parsed, row.item.options)


def _summary_numbers(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    answered = round(summary["metrics"].get("mean_answered", 0.0) * summary["n"])
    return [
        ("overall accuracy", f"{summary['overall']:.4f}"),
        ("items", str(summary["n"])),
        ("answered", f"{answered} of {summary['n']}"),
        ("missing predictions", str(summary["missing"])),
        ("malformed lines", str(summary["malformed_lines"])),
        ("unknown ids", str(summary["unknown_ids"])),
        ("duplicate ids", str(summary["duplicate_ids"])),
    ]


# -- HTML -------------------------------------------------------------------------------------------------
def numeric_columns(table: Table) -> list[bool]:
    """For each column, whether every cell of it reads as a number (right-aligned), "-" counting as one."""
    def number(text: str) -> bool:
        try:
            float(text.rstrip("%"))
        except ValueError:
            return text == "-"
        return True

    return [bool(table.rows) and all(number(str(row[k])) for row in table.rows) for k in range(len(table.header))]


def _html_table(table: Table) -> str:
    kinds = ["" if n else ' class="text"' for n in numeric_columns(table)]
    head = "".join(f"<th{k}>{_e(h)}</th>" for k, h in zip(kinds, table.header, strict=True))
    body = "".join("<tr>" + "".join(f"<td{k}>{_e(c)}</td>" for k, c in zip(kinds, row, strict=True)) + "</tr>"
                   for row in table.rows)
    return f"<table><caption>{_e(table.title)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _html_example(example: Example) -> str:
    row = example.row
    verdict = "right" if example.right else "wrong"
    parts = [f'<div class="card {verdict}"><div class="verdict">{verdict}</div>',
             f"<div><code>{_e(row.item.id)}</code></div>"]
    for _path, png, problem in example.images:
        if png is None:
            parts.append(f'<p class="missing">image not shown: {_e(problem)}</p>')
        else:
            parts.append(f'<img src="{data_url(png)}" alt="image of {_e(row.item.id)}" loading="eager">')
    gold = answer_text(row.item.answer, row.item.options)
    parts.append(f"<dl><dt>gold answer</dt><dd>{_e(gold)}</dd><dt>model's answer</dt><dd>{_html_parsed(example)}"
                 f"</dd><dt>score</dt><dd>{row.value:.4g}</dd></dl>")
    parts.append(f"<details open><summary>question</summary><pre>{_e(row.item.question)}</pre></details>")
    if row.has_response:
        parts.append(f"<details><summary>raw response</summary><pre>{_e(response_text(row.response))}</pre>"
                     "</details>")
    parts.append("</div>")
    return "".join(parts)


def render_html(page: Page) -> str:
    """The report as one HTML document that needs nothing but itself."""
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>bench report: {_e(page.dataset)}</title><style>{_STYLE}</style></head><body>",
           "<h1>bench report</h1>",
           f'<p class="meta">dataset <code>{_e(page.dataset)}</code>, predictions <code>{_e(page.predictions)}'
           "</code></p>"]
    links = [(s.anchor, s.title) for s in page.sections] + [("examples", "Examples")]
    out.append("<nav>" + "".join(f'<a href="#{_e(a)}">{_e(t)}</a>' for a, t in links) + "</nav>")
    out.append('<div class="kpis">' + "".join(f"<div class=\"kpi\"><b>{_e(v)}</b><span>{_e(k)}</span></div>"
                                              for k, v in _summary_numbers(page.summary)) + "</div>")
    if page.notes:
        out.append('<p class="notes">' + "<br>".join(_e(n) for n in page.notes) + "</p>")
    for section in page.sections:
        out.append(f'<section id="{_e(section.anchor)}"><h2>{_e(section.title)}</h2><p>{_e(section.intro)}</p>')
        for path, chart in section.charts:
            out.append(f'<figure><img src="{data_url(chart.png)}" alt="{_e(chart.title)}">'
                       f"<figcaption>{_e(chart.caption)} <span class=\"meta\">({_e(path)})</span></figcaption>")
            if chart.table is not None:
                out.append(f"<details><summary>numbers</summary>{_html_table(chart.table)}</details>")
            out.append("</figure>")
        out.extend(_html_table(t) for t in section.tables)
        out.append("</section>")
    out.append('<section id="examples"><h2>Examples</h2><p>For each task, the first item the model got right and '
               "the first it got wrong (a parsed wrong answer before a missing or unparsable one).</p>")
    for task, examples in page.examples:
        out.append(f"<h3>{_e(task)}</h3><div class=\"examples\">")
        out.extend(_html_example(x) for x in examples)
        out.append("</div>")
    out.append("</section></body></html>\n")
    return "\n".join(out)


# -- markdown ---------------------------------------------------------------------------------------------
def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(table: Table) -> str:
    """A pipe table under a bold title line."""
    align = ["---:" if n else "---" for n in numeric_columns(table)]
    lines = [f"**{_cell(table.title)}**", "", "| " + " | ".join(_cell(h) for h in table.header) + " |",
             "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines) + "\n"


def _markdown_example(example: Example) -> str:
    row = example.row
    lines = [f"**{'right' if example.right else 'wrong'}**: `{row.item.id}`", ""]
    for path, png, problem in example.images:
        lines.append(f"![{row.item.id}]({path})" if png is not None else f"*image not shown: {problem}*")
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", row.item.question)), default=0))
    lines += ["", f"{fence}text", row.item.question, fence, "",
              f"- gold answer: {answer_text(row.item.answer, row.item.options)}",
              f"- model's answer: {parsed_text(example)}"]
    where = first_difference(example)
    if where is not None:
        lines.append(f"- first wrong token: position {where + 1}")
    lines += [f"- score: {row.value:.4g}", ""]
    return "\n".join(lines)


def render_markdown(page: Page) -> str:
    """The report in markdown: the same summary, figures (as links to their PNGs), tables and examples."""
    out = ["# bench report", "", f"Dataset `{page.dataset}`, predictions `{page.predictions}`.", ""]
    out += [f"- {k}: {v}" for k, v in _summary_numbers(page.summary)]
    out += [f"- {n}" for n in page.notes]
    for section in page.sections:
        out += ["", f"## {section.title}", "", section.intro, ""]
        for path, chart in section.charts:
            out += [f"![{chart.title}]({path})", "", f"*{chart.caption}*", ""]
            if chart.table is not None:
                out.append(markdown_table(chart.table))
        out += [markdown_table(t) for t in section.tables]
    out += ["", "## Examples", ""]
    for task, examples in page.examples:
        out += [f"### {task}", ""]
        out += [_markdown_example(x) for x in examples]
    return "\n".join(out).rstrip() + "\n"
