"""``noah-companion kit print``: the table kit (five ferry mats and the Noah marker) as a PDF.

Print it at 100 % and check the 50 mm bar with a ruler (docs/table-view.md, TABLE-KIT.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("kit", help="print the table kit for the overhead camera")
    actions = parser.add_subparsers(dest="kit_action", metavar="ACTION", required=True)
    print_parser = actions.add_parser(
        "print", help="write the ferry mats and the Noah marker as a PDF",
        description="Write the five ferry mats (100 × 150 mm) and the Noah marker, to print at "
                    "100 % scale and cut out (docs/table-view.md).")
    print_parser.add_argument("-o", "--out", metavar="PDF", type=Path, required=True,
                              help="the PDF to write, e.g. kit.pdf")
    print_parser.add_argument("--paper", choices=("a4", "letter"), default="a4",
                              help="paper size (default a4)")
    print_parser.set_defaults(func=print_kit)


def print_kit(args: argparse.Namespace) -> int:
    from companion.tags.kit import render_kit

    paper = "A4" if args.paper == "a4" else "letter"
    data = render_kit(paper)
    try:
        args.out.write_bytes(data)
    except OSError as error:
        raise UserError(f"Cannot write {args.out}: {error.strerror}.",
                        "Choose a folder you can write to.") from None
    print(f"Wrote {args.out}: five ferry mats and the Noah marker on three {paper} pages.")
    print("Print it at 100 % (\"Actual size\"), check the 50 mm bar with a ruler, cut along the "
          "dashed lines (docs/table-view.md).")
    return 0
