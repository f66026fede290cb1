"""Bot profiles: how each bot plays, from the stored action logs (a DuckDB view).

Per bot, variant and betting system, over the hands it was dealt:

- ``vpip``: share of hands it put chips in voluntarily in the first betting round
  (a call of more than nothing or a bet/raise; blinds, antes and bring-ins are forced);
- ``pfr``: share of hands it bet or raised in the first betting round;
- ``aggression``: bets and raises per call (the aggression factor), all rounds;
- ``wtsd``: share of the hands it did not fold in the first round that it took to the
  showdown; ``wsd``: share of its showdowns in which it won chips;
- ``fold_to_bet``: share of its decisions facing a bet, raise or blind that were folds.

"First round" is the first betting round of the hand (pre-flop in hold'em, third
street in stud); a decision faces a bet when a bet, raise, blind or bring-in came
before it in the same round.
"""

from __future__ import annotations

PROFILE_COLUMNS = ("bot", "variant", "betting", "hands", "vpip", "pfr", "aggression",
                   "wtsd", "wsd", "fold_to_bet")

PROFILES_VIEW_SQL = """
CREATE VIEW bot_profiles AS
WITH decisions AS (
    SELECT run_id, match, hand, seq, street, seat, kind, amount,
           min(street) FILTER (WHERE kind IN ('f', 'cc', 'cbr'))
               OVER (PARTITION BY run_id, match, hand) AS first_street,
           coalesce(max(CASE WHEN kind IN ('cbr', 'blind', 'pb') THEN 1 ELSE 0 END)
               OVER (PARTITION BY run_id, match, hand, street ORDER BY seq
                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS facing
    FROM actions
    WHERE kind IN ('f', 'cc', 'cbr', 'pb', 'blind')),
per_hand AS (
    SELECT run_id, match, hand, seat,
           bool_or(street = first_street AND (kind = 'cbr' OR (kind = 'cc' AND amount > 0)))
               AS vpip,
           bool_or(street = first_street AND kind = 'cbr') AS pfr,
           bool_or(street = first_street AND kind = 'f') AS folded_first,
           count(*) FILTER (WHERE kind = 'cbr') AS raises,
           count(*) FILTER (WHERE kind = 'cc' AND amount > 0) AS calls,
           count(*) FILTER (WHERE facing = 1 AND (kind IN ('f', 'cbr')
                                                  OR (kind = 'cc' AND amount > 0))) AS faced,
           count(*) FILTER (WHERE facing = 1 AND kind = 'f') AS folds_to_bet
    FROM decisions
    WHERE seat >= 0 AND kind IN ('f', 'cc', 'cbr')
    GROUP BY run_id, match, hand, seat)
SELECT s.run_id, s.bot, s.variant, s.betting, count(*) AS hands,
       round(avg(coalesce(p.vpip, false)::INT), 4) AS vpip,
       round(avg(coalesce(p.pfr, false)::INT), 4) AS pfr,
       round(sum(coalesce(p.raises, 0)) / nullif(sum(coalesce(p.calls, 0)), 0), 3)
           AS aggression,
       round(avg(CASE WHEN NOT coalesce(p.folded_first, false) THEN s.showdown::INT END), 4)
           AS wtsd,
       round(avg(CASE WHEN s.showdown THEN (s.pot_won > 0)::INT END), 4) AS wsd,
       round(sum(coalesce(p.folds_to_bet, 0)) / nullif(sum(coalesce(p.faced, 0)), 0), 4)
           AS fold_to_bet
FROM seats s LEFT JOIN per_hand p USING (run_id, match, hand, seat)
GROUP BY s.run_id, s.bot, s.variant, s.betting
"""
