"""The hands finder's one statement: hands worth a look, in a chosen order, one row per
hand and seat (``GET /api/runs/{id}/hands`` runs it; the page summaries keep its first
rows of each order)."""

from __future__ import annotations

from pokerarena.platform.sql import sql_str

ORDERS = {
    "pot": "h.pot DESC",
    "loss": "s.net / h.bb ASC",
    "win": "s.net / h.bb DESC",
    "luck": "abs(s.equity_net - s.net) / h.bb DESC",
    "aivat": "abs(s.aivat_net - s.net) / h.bb DESC",
}
"""``order``: the biggest pots, a seat's biggest losses or wins (in big blinds), the
largest all-in luck (``equity_net`` against ``net``), the largest AIVAT correction."""


def hands_sql(order: str, bot: str | None, variant: str | None, showdown: bool | None,
              street: int | None, limit: int, offset: int) -> str:
    """The hands finder's statement (one row per hand and seat, in ``order``, ties
    broken by match, hand and seat: a total order, so a page is a slice of a longer
    one). Values reach it validated: names as escaped literals, numbers as integers."""
    conds = ["TRUE"]
    if bot is not None:
        conds.append(f"s.bot = {sql_str(bot)}")
    if variant is not None:
        conds.append(f"h.variant = {sql_str(variant)}")
    if showdown is not None:
        conds.append("h.showdown" if showdown else "NOT h.showdown")
    if street is not None:
        conds.append("EXISTS (SELECT 1 FROM actions a WHERE a.run_id = h.run_id AND "
                     "a.match = h.match AND a.hand = h.hand AND a.seat >= 0 AND "
                     f"a.street >= {int(street)})")
    if order == "aivat":
        conds.append("s.aivat_net IS NOT NULL")
    if order == "pot" and bot is None:
        conds.append("s.pot_won = (SELECT max(x.pot_won) FROM seats x WHERE "
                     "x.run_id = s.run_id AND x.match = s.match AND x.hand = s.hand)")
    return (f"SELECT h.unit, h.match, h.hand, h.variant, h.betting, h.pot, h.bb, "
            f"h.showdown, s.seat, s.bot, s.net, s.equity_net, s.pot_won "
            f"FROM hands h JOIN seats s USING (run_id, match, hand) "
            f"WHERE {' AND '.join(conds)} "
            f"ORDER BY {ORDERS[order]}, h.match, h.hand, s.seat "
            f"LIMIT {int(limit)} OFFSET {int(offset)}")
