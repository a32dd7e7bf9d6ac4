"""Levels of play (issue 14), in the engine: the mode option, the moderator's seat, the tabletop
vocabulary, decks, hidden pieces, assist-mode proposals and rulings, whispers and pacts, and that
no secret reaches a view, a public text or an event it is not entitled to."""
from __future__ import annotations

import json

import pytest

import tests.pbp_helpers  # noqa: F401  (registers tiny-pbp)
from bot.history import walk
from engine.core import Game, IllegalOrder, InvalidOrder, OrderError, state_digest
from engine.modes import mode_of, split_name, with_mode
from engine.rulesets import get_ruleset


def play(g: Game, seat: str, text: str, log: list | None = None):
    before = g.dice_drawn()
    action, events = g.play(seat, text)
    if log is not None:
        log.append({"seq": len(log) + 1, "seat": seat, "kind": "order", "text": g.ruleset.format(action),
                    "dice_before": before, "dice_after": g.dice_drawn()})
    return action, events


def refused(g: Game, seat: str, text: str) -> str:
    before = json.dumps(g.state, sort_keys=True)
    with pytest.raises(OrderError) as e:
        g.play(seat, text)
    assert json.dumps(g.state, sort_keys=True) == before  # nothing changed, dice included
    return str(e.value)


def risk(mode="tabletop", seed="s1", **opts) -> Game:
    return Game.new(get_ruleset(f"risk-minas-tirith@{mode}"), {"mode": mode, **opts}, seed)


def gondor(mode="assist", seed="s1", **opts) -> Game:
    return Game.new(get_ruleset(f"gondor@{mode}"), {"mode": mode, **opts}, seed)


# ------------------------------------------------------------------ the option and the registry
def test_mode_option_parsed():
    assert mode_of({}) is None
    assert mode_of({"mode": "Assist"}) == "assist"
    assert mode_of({"whispers": "off"}) == "enforced"
    for bad in ({"mode": "chaos"}, {"whispers": "sometimes"}):
        with pytest.raises(ValueError):
            mode_of(bad)
    assert split_name("gondor@assist") == ("gondor", "assist")
    assert split_name("gondor") == ("gondor", None)


def test_wrapped_ruleset_adds_gm_and_keeps_the_plain_one_unchanged():
    plain = get_ruleset("gondor")
    rs = get_ruleset("gondor@assist")
    assert rs is get_ruleset("gondor@assist") and rs.inner is plain
    assert rs.seats == ("sauron", "westernesse", "gm") and rs.optional_seats == ("gm",)
    assert plain.seats == ("sauron", "westernesse") and plain.optional_seats == ()
    assert "table" not in Game.new(plain, {}, "s1").state
    g = gondor()
    assert g.state["table"]["mode"] == "assist" and g.view(None)["mode"] == "assist"
    with pytest.raises(KeyError):
        get_ruleset("gondor@chaos")


def test_options_checked_and_passed_to_the_inner_ruleset():
    rs = get_ruleset("tiny-pbp@enforced")
    Game.new(rs, {"mode": "enforced", "whispers": "off"}, "s")  # the table's own options are taken off
    with pytest.raises(InvalidOrder):
        Game.new(rs, {"mode": "enforced", "colour": "red"}, "s")  # the inner ruleset still checks its own
    with pytest.raises(InvalidOrder):
        Game.new(rs, {"mode": "assist"}, "s")
    with pytest.raises(InvalidOrder):
        Game.new(rs, {"whispers": "loud"}, "s")


def test_enforced_mode_plays_the_inner_game_and_the_gm_gives_none_of_its_orders():
    g = Game.new(get_ruleset("tiny-pbp@enforced"), {"mode": "enforced"}, "s")
    play(g, "red", "note hello")
    assert g.view(None)["notes"] == ["hello"]
    assert "moderator gives no order" in refused(g, "gm", "note x")
    assert refused(g, "red", "fly away")  # no declared actions when enforced
    assert "moderator" in refused(g, "red", "set morale 3")  # the vocabulary is the moderator's outside tabletop
    _, ev = play(g, "gm", "pass red because away all week")
    assert g.view(None)["phase"] == "blue" and "away all week" in ev[0].public
    assert list(g.legal_actions("gm"))[0].verb == "pass"


# ------------------------------------------------------------------ tabletop
def test_tabletop_vocabulary_and_turn_order():
    g = risk()
    assert g.active_seats() == ["good"]
    assert "Evil" not in refused(g, "evil", "place E1 city") and "Good's turn" in refused(g, "evil", "place E1 city")
    play(g, "good", "place A1 city infantry")
    play(g, "good", "move A1 wall-n")
    assert any(u["id"] == "A1" and u["area"] == "wall-n" for u in g.view(None)["units"])
    assert "already at" in refused(g, "good", "move A1 wall-n")
    assert "no area" in refused(g, "good", "move A1 nowhere-land")
    play(g, "good", "set morale 3")
    assert {"name": "morale", "side": None, "points": 3, "level": "-", "table": True} in g.view(None)["tracks"]
    n = g.dice_drawn()
    _, ev = play(g, "good", "roll 2d6 for the gate")
    assert g.dice_drawn() == n + 2 and [r["label"] for r in ev[0].rolls] == ["the gate", "the gate"]
    assert "the gate" in ev[0].public and f"= **{sum(r['value'] for r in ev[0].rolls)}**" in ev[0].public
    play(g, "good", "done")
    assert g.active_seats() == ["evil"] and g.view(None)["turn"] == 1
    assert "belongs to Good" in refused(g, "evil", "remove A1")
    _, ev = play(g, "evil", "done")
    assert ev[-1].new_phase and g.view(None)["turn"] == 2 and g.active_seats() == ["good"]
    assert "Round 2" in g.view(None)["phase_title"]
    play(g, "good", "remove A1")
    assert not any(u["id"] == "A1" for u in g.view(None)["units"])


def test_tabletop_inner_verbs_still_work():
    g = risk()
    legal = g.legal_texts("good", limit=50)
    assert "done" in legal and "take 4" in legal
    play(g, "good", "take 4")  # Risk's own verb, checked by Risk
    assert g.state["die"] == 4


def test_gm_may_pass_the_seat_to_act_with_a_reason():
    g = risk()
    assert "reason" in refused(g, "gm", "pass good")
    assert "Evil" in refused(g, "gm", "pass evil because slow")
    play(g, "gm", "pass good because away")
    assert g.active_seats() == ["evil"]
    assert "passes a seat" in refused(g, "gm", "done")


# ------------------------------------------------------------------ decks
def test_deck_shuffled_from_the_game_dice_and_drawn_face_down():
    g1, g2, g3 = risk(seed="a"), risk(seed="a"), risk(seed="b")
    for g in (g1, g2, g3):
        play(g, "good", "deck orders " + " ".join(f"o{i}" for i in range(1, 11)))
    assert g1.state["table"]["decks"]["orders"]["cards"] == g2.state["table"]["decks"]["orders"]["cards"]
    assert g1.state["table"]["decks"]["orders"]["cards"] != g3.state["table"]["decks"]["orders"]["cards"]
    g = g1
    _, ev = play(g, "good", "draw orders")
    card = g.state["table"]["hands"]["good"][0][1]
    assert card not in ev[0].public and ev[0].private["good"].count(card) == 1 and card in ev[0].private["gm"]
    assert ev[0].rolls == []  # a shuffle's draws would tell the deck's order
    assert g.view(None)["table"]["hands"] == {"good": ["?"]} and g.view("evil")["table"]["hands"] == {"good": ["?"]}
    assert g.view("good")["table"]["hands"] == {"good": [card]} and g.view("gm")["table"]["hands"] == {"good": [card]}
    assert g.view(None)["table"]["decks"]["orders"]["cards"] == 9
    assert card in g.ruleset.secret_text(g.state, "good") and card in g.ruleset.secret_text(g.state, "gm")
    assert card not in (g.ruleset.secret_text(g.state, "evil") or "")
    a, ev = play(g, "good", f"give {card} to evil")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "give (a card) to evil"
    assert card not in ev[0].public and card in ev[0].private["evil"]
    assert g.view("evil")["table"]["hands"] == {"good": [], "evil": [card]}
    assert "hold no card" in refused(g, "good", f"discard {card}")
    play(g, "good", "done")
    play(g, "evil", f"discard {card}")
    assert g.view(None)["table"]["decks"]["orders"]["discard"] == [card]
    n = g.dice_drawn()
    play(g, "evil", "reshuffle orders")
    assert g.dice_drawn() > n and g.view(None)["table"]["decks"]["orders"] == {"cards": 10, "discard": [], "open": False}
    assert "already exists" in refused(g, "evil", "deck orders x")
    assert "no deck" in refused(g, "evil", "draw nothing")


def test_open_deck_is_drawn_face_up():
    g = risk()
    play(g, "good", "deck events open e1 e2")
    _, ev = play(g, "good", "draw events")
    card = g.state["table"]["hands"]["good"][0][1]
    assert card in ev[0].public and g.view("evil")["table"]["hands"]["good"] == [card]


# ------------------------------------------------------------------ hidden pieces
def test_hidden_and_secret_pieces():
    g = risk()
    a, ev = play(g, "good", "place H1 city scout hidden")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "place (a face-down piece) city"
    assert "H1" not in ev[0].public and "scout" not in ev[0].public and "H1" in ev[0].private["good"]
    a, ev = play(g, "good", "place S1 wall-n spy secret")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "place (a secret piece)"
    assert "wall-n" not in ev[0].public
    for seat in (None, "evil"):
        units = [u for u in g.view(seat)["units"] if u.get("table")]
        assert units == [{"id": "?1", "side": "good", "type": "face-down", "table": True, "face_down": True,
                          "hex": "city", "count": 1, "ratings": "", "reduced": False, "disrupted": False,
                          "area": "city"}]
    for seat in ("good", "gm"):
        assert {u["id"] for u in g.view(seat)["units"] if u.get("table")} == {"good.H1", "good.S1"}
    play(g, "good", "done")
    # the same answer for a piece hidden from the seat and for none at all
    assert refused(g, "evil", "move S1 city").replace("S1", "X") == refused(g, "evil", "move X city")
    assert refused(g, "evil", "flip H1").replace("H1", "X") == refused(g, "evil", "flip X")
    play(g, "evil", "place S1 city")  # the same id as good's secret piece: nothing tells evil it exists
    play(g, "evil", "done")
    a, ev = play(g, "good", "move H1 wall-n")
    assert g.ruleset.format(a) == "move good.H1 wall-n hidden"  # the mark lets the public log mask it
    assert g.ruleset.public_order_text("move good.H1 wall-n hidden") == "move (a face-down piece) wall-n"
    _, ev = play(g, "good", "flip H1")
    assert ev[0].reveals and "scout `good.H1`" in ev[0].public
    assert any(u["id"] == "good.H1" for u in g.view("evil")["units"])
    play(g, "good", "flip H1")
    assert any(u["id"] == "?1" for u in g.view("evil")["units"])
    assert "S1" in g.ruleset.secret_text(g.state, "good") and "S1" in g.ruleset.secret_text(g.state, "gm")
    assert "S1" not in (g.ruleset.secret_text(g.state, "evil") or "")


def test_gm_adjusts_with_a_reason_in_assist():
    g = gondor()
    assert "reason" in refused(g, "gm", "place M1 1905 marker")
    _, ev = play(g, "gm", "place M1 1905 marker for westernesse hidden because house rule")
    assert g.state["table"]["pieces"]["westernesse.M1"]["owner"] == "westernesse" and "house rule" in ev[0].public
    assert "moderator" in refused(g, "sauron", "place X 1905")


# ------------------------------------------------------------------ assist: declared actions and rulings
def test_assist_declared_actions_ruled_by_the_gm():
    g = gondor()
    a, ev = play(g, "sauron", "charge the walls with trolls")
    assert g.ruleset.format(a) == "declare charge the walls with trolls"
    assert "d1" in ev[0].public and "unknown order" in ev[0].public
    assert "!deploy GOT 9999" in refused(g, "sauron", "deploy GOT 9999")  # refused, with the way to declare it
    a, ev = play(g, "sauron", "!deploy GOT 9999")
    assert g.ruleset.format(a) == "declare deploy GOT 9999" and "off the map" in ev[0].public
    a, _ = play(g, "sauron", "!deploy GOT 0123")  # the engine accepts it: an order, not a declaration
    assert a.verb == "deploy"
    assert "reason" in refused(g, "gm", "accept d1")
    _, ev = play(g, "gm", "accept d1 because the trolls were there in the book")
    _, ev2 = play(g, "gm", "refuse d2 because off the map is off the map")
    p1, p2 = g.view(None)["table"]["proposals"]
    assert p1["status"] == "accepted" and p1["ruling"] == {"by": "gm", "reason": "the trolls were there in the book"}
    assert p2["status"] == "refused" and "off the map" in ev2[0].public
    assert "already accepted" in refused(g, "gm", "refuse d1 because changed my mind")
    assert "already refused" in refused(g, "westernesse", "accept d2")
    assert "no proposal" in refused(g, "westernesse", "accept d9")


def test_assist_without_gm_every_other_seat_accepts():
    g = Game.new(get_ruleset("tiny-pbp@assist"), {"mode": "assist"}, "s")
    play(g, "red", "summon a dragon")
    assert "other seats" in refused(g, "red", "accept d1")
    _, ev = play(g, "blue", "accept d1")
    assert g.view(None)["table"]["proposals"][0]["status"] == "accepted" and "accepted" in ev[0].public
    play(g, "red", "bribe the guard")
    play(g, "blue", "refuse d2 because no guard here")
    assert g.view(None)["table"]["proposals"][1]["status"] == "refused"


# ------------------------------------------------------------------ whispers and pacts
def test_whispers_and_policy():
    g = risk(mode="enforced")
    a, ev = play(g, "evil", "whisper good meet me at the gate")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "whisper (private)"
    assert ev[0].public == "" and "meet me" in ev[0].private["good"] and "meet me" in ev[0].private["gm"]
    assert g.view(None)["table"]["whispered"] == [] and g.view("good")["table"]["whispered"][0]["text"] == "meet me at the gate"
    assert g.view("gm")["table"]["whispered"] and "yourself" in refused(g, "evil", "whisper evil hi")
    g = risk(mode="enforced", whispers="public-only")
    assert "`say`" in refused(g, "evil", "whisper good hi")
    _, ev = play(g, "evil", "say good hi there")
    assert ev[0].public == "Evil to Good: hi there"
    g = risk(mode="enforced", whispers="off")
    assert "off" in refused(g, "evil", "say good hi")


def test_pacts_public_and_secret():
    g = risk(mode="enforced")
    play(g, "good", "pact evil truce until round 3")
    _, ev = play(g, "evil", "accept k1")
    assert "agreed" in ev[0].public and g.view(None)["table"]["pacts"][0]["status"] == "agreed"
    a, ev = play(g, "evil", "pact secret good we split the city")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "pact (secret)" and ev[0].public == ""
    assert [k["id"] for k in g.view(None)["table"]["pacts"]] == ["k1"]
    assert [k["id"] for k in g.view("good")["table"]["pacts"]] == ["k1", "k2"]
    assert [k["id"] for k in g.view("gm")["table"]["pacts"]] == ["k1", "k2"]
    a, ev = play(g, "good", "accept k2")
    assert g.ruleset.format(a) == "accept k2 secret" and g.ruleset.public_order_text("accept k2 secret") == "accept (secret)"
    assert "split the city" in g.ruleset.secret_text(g.state, "gm")
    assert "is already agreed" in refused(g, "good", "refuse k2")


# ------------------------------------------------------------------ secrecy and replay
SECRETS = ("S1", "spy", "H1", "scout", "meet me", "split the city", "o3", "o4", "o5")


def secret_game(hidden_kind="spy", whisper="meet me at dawn", log=None) -> Game:
    g = risk(seed="same")
    play(g, "good", "deck orders o1 o2 o3 o4 o5", log)
    play(g, "good", "draw orders", log)
    play(g, "good", f"place S1 wall-n {hidden_kind} secret", log)
    play(g, "good", "place H1 city scout hidden", log)
    play(g, "good", f"whisper evil {whisper}", log)
    play(g, "good", "pact secret evil we split the city", log)
    play(g, "good", "done", log)
    return g


def test_no_secret_in_public_view_or_other_seat_view():
    log: list = []
    g = secret_game(log=log)
    card = g.state["table"]["hands"]["good"][0][1]
    public = json.dumps(g.view(None)) + " ".join(g.ruleset.public_order_text(e["text"]) for e in log)
    for s in ("S1", "spy", "H1", "scout", "meet me", "split the city"):
        assert s not in public, s
    assert card not in json.dumps(g.view(None))  # the deck's cards are public; who holds which is not
    evil = json.dumps(g.view("evil")) + (g.ruleset.secret_text(g.state, "evil") or "")
    for s in ("S1", "spy", "H1", "scout", card):  # good's hidden pieces and hand
        assert s not in evil, s
    assert "split the city" in evil and "meet me" in evil  # a party to the pact, the whisper's reader


def test_two_games_differing_only_in_a_secret_look_the_same_in_public():
    a, b = [], []
    g1 = secret_game("spy", "meet me at dawn", a)
    g2 = secret_game("assassin", "the gate is weak", b)
    assert json.dumps(g1.view(None), sort_keys=True) == json.dumps(g2.view(None), sort_keys=True)
    pub = lambda g, log: [g.ruleset.public_order_text(e["text"]) for e in log]  # noqa: E731
    assert pub(g1, a) == pub(g2, b)


def test_replays_deterministically_from_the_log():
    log: list = []
    g = secret_game(log=log)
    play(g, "evil", "roll 3d6 for the storm", log)
    play(g, "evil", "draw orders", log)
    rs = g.ruleset
    first = Game.new(rs, {"mode": "tabletop"}, "same").state
    final = None
    for _, game, _ in walk(rs.name, first, log):
        final = game
    assert state_digest(final.state) == state_digest(g.state)


def test_face_down_counter_drawn_the_same_whatever_it_hides():
    from render import render_view

    pngs = []
    for kind in ("spy", "assassin"):
        g = gondor(seed="r")
        play(g, "gm", f"place H1 1905 {kind} for westernesse hidden because ambush")
        rs = g.ruleset
        pngs.append((render_view(g.view(None), rs.game_board().drawable, around="1905", radius=3),
                     render_view(g.view("westernesse"), rs.game_board().drawable, around="1905", radius=3)))
    (pub_a, own_a), (pub_b, own_b) = pngs
    assert pub_a == pub_b  # the public counter shows nothing of what it is
    assert own_a != own_b  # its owner reads it
    g = gondor(seed="r")
    plain = render_view(g.view(None), g.ruleset.game_board().drawable, around="1905", radius=3)
    assert plain != pub_a  # and it is drawn


def test_gm_adjusts_the_games_own_units_with_a_reason():
    log: list = []
    g = gondor()
    play(g, "sauron", "deploy GOT 0123", log)
    assert "reason" in refused(g, "gm", "move GOT 0124")
    _, ev = play(g, "gm", "move GOT 0124 because the ruling on d1", log)
    assert g.state["units"]["GOT"]["hex"] == "0124" and "the ruling on d1" in ev[0].public
    _, ev = play(g, "gm", "remove GOT because slain by the ruling", log)
    assert g.state["units"]["GOT"]["status"] == "eliminated" and "eliminated" in ev[0].public
    assert "deploy" not in refused(g, "westernesse", "remove GOT because I say so")  # not a player's, in assist
    final = None
    for _, final, _ in walk("gondor@assist", gondor().state, log):
        pass
    assert state_digest(final.state) == state_digest(g.state)
    r = risk(mode="assist")  # Risk's armies too (tests/rulesets/modes/test_modes_override.py has its adjustments)
    assert "reason" in refused(r, "gm", "move city:inf rammas-n")


def test_trade_offer_counter_accept_withdraw_with_goods_locked():
    g = risk(seed="trade")
    play(g, "good", "deck orders " + " ".join(f"o{i}" for i in range(1, 9)))
    play(g, "good", "draw orders")
    play(g, "good", "draw orders")
    play(g, "good", "done")
    play(g, "evil", "draw orders")
    play(g, "evil", "done")
    hand = lambda s: [c for _, c in g.state["table"]["hands"][s]]  # noqa: E731
    g1, g2 = hand("good")
    [e1] = hand("evil")
    assert "hold no card" in refused(g, "good", f"offer evil {e1} for nothing")
    a, ev = play(g, "good", f"offer evil {g1} for {e1}")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "offer (private) to evil"
    assert g1 not in ev[0].public and g1 in ev[0].private["evil"] and g1 in ev[0].private["gm"]
    assert g.view(None)["table"]["trades"] == [{"id": "t1", "from": "good", "to": "evil", "status": "open"}]
    assert g.view("evil")["table"]["trades"][0]["give"] == [g1]
    # the offered card is locked while the offer is open
    assert "locked" in refused(g, "good", f"discard {g1}")
    assert "locked" in refused(g, "good", f"offer evil {g1} for nothing")
    assert "answered by Evil" in refused(g, "good", "accept t1")
    a, ev = play(g, "evil", f"counter t1 {e1} for {g1}+{g2}")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "counter t1 (private)"
    assert [t["status"] for t in g.view("gm")["table"]["trades"]] == ["countered", "open"]
    play(g, "evil", "withdraw t2")
    assert "already withdrawn" in refused(g, "good", "accept t2")
    play(g, "good", f"offer evil {g2} for {e1}")
    assert "hold no card" not in refused(g, "evil", "refuse t9")
    _, ev = play(g, "evil", "accept t3")
    assert hand("good") == [g1, e1] and hand("evil") == [g2]
    assert g2 not in ev[0].public and e1 not in ev[0].public


def test_trade_accept_needs_the_asked_cards():
    g = risk(seed="trade")
    play(g, "good", "deck orders o1 o2 o3 o4")
    play(g, "good", "draw orders")
    [card] = [c for _, c in g.state["table"]["hands"]["good"]]
    play(g, "good", f"offer evil {card} for zz9")
    assert "hold no card" in refused(g, "evil", "accept t1")


def test_vote_to_end_the_game():
    g = Game.new(get_ruleset("trio-pbp@enforced"), {"mode": "enforced"}, "v")
    assert "usage" in refused(g, "north", "vote stop")
    _, ev = play(g, "north", "vote end")
    assert "v1" in ev[0].public and g.result() is None
    assert "already voted" in refused(g, "north", "accept v1")
    play(g, "east", "accept v1")
    assert g.result() is None
    _, ev = play(g, "south", "accept v1")
    assert ev[-1].new_phase and g.result().winner is None and "vote" in g.result().summary
    assert g.active_seats() == [] and "over" in refused(g, "south", "note x")


def test_vote_refused_or_ruled_by_the_gm():
    g = Game.new(get_ruleset("trio-pbp@assist"), {"mode": "assist"}, "v")
    play(g, "north", "vote replace south")
    assert "does not vote" in refused(g, "south", "refuse v1")  # the seat in question has no say
    assert "reason" in refused(g, "gm", "accept v1")
    play(g, "gm", "accept v1 because south has been silent for two weeks")
    assert g.ruleset.replaceable_seats(g.state) == ["south"] and g.result() is None
    play(g, "east", "vote end")
    play(g, "south", "refuse v2 because I am back")
    assert g.view(None)["table"]["votes"][1]["status"] == "refused" and g.result() is None


def test_a_declared_secret_order_stays_masked():
    """Gondor's oil order is secret (16.74): declared in assist play, the public reads it masked."""
    g = gondor()
    text = "pour K1 at 1905"
    a, ev = play(g, "westernesse", "!" + text)
    canon = g.ruleset.format(a)
    assert canon == "declare " + text
    masked = g.ruleset.public_order_text(canon)
    assert "K1" not in masked and "1905" not in masked and "16.74" in masked
    assert "K1" not in ev[0].public and "K1" in ev[0].private["westernesse"] and "K1" in ev[0].private["gm"]
    assert "K1" not in json.dumps(g.view(None)["table"]) and "K1" not in json.dumps(g.view("sauron")["table"])
    assert g.view("westernesse")["table"]["proposals"][0]["text"] == text
    _, ev = play(g, "gm", "refuse d1 because not in this phase")
    assert "K1" not in ev[0].public


def test_show_a_card_to_one_seat():
    g = Game.new(get_ruleset("trio-pbp@tabletop"), {"mode": "tabletop"}, "show")
    play(g, "south", "deck d c1 c2 c3")
    play(g, "south", "draw d")
    [card] = [c for _, c in g.state["table"]["hands"]["south"]]
    a, ev = play(g, "south", f"show {card} to north")
    assert g.ruleset.public_order_text(g.ruleset.format(a)) == "show (a card) to north"
    assert card not in ev[0].public and card in ev[0].private["north"]
    assert g.view("north")["table"]["hands"]["south"] == [card]
    assert g.view("east")["table"]["hands"]["south"] == ["?"] and g.view(None)["table"]["hands"]["south"] == ["?"]
    play(g, "south", f"give {card} to east")
    assert g.view("north")["table"]["hands"]["east"] == ["?"]  # shown while in south's hand only


@pytest.mark.parametrize("name", ["gondor", "celebrant", "risk-minas-tirith"])
@pytest.mark.parametrize("mode", ["enforced", "assist", "tabletop"])
def test_every_ruleset_at_every_level(name, mode):
    from render import render_view

    rs = get_ruleset(f"{name}@{mode}")
    g = Game.new(rs, {"mode": mode}, "every")
    assert rs.seats[-1] == "gm" and g.active_seats() and "gm" not in g.active_seats()
    seat = g.active_seats()[0]
    assert g.legal_texts(seat, limit=5) and g.legal_texts("gm", limit=5)
    for s in (None, *rs.seats):
        v = g.view(s)
        assert v["mode"] == mode and "table" in v
    expected = "\n".join(f"{s.title()}: {t}" for s in rs.inner.seats if (t := rs.inner.secret_text(g.state, s)))
    assert rs.secret_text(g.state, "gm") == (expected or None)  # the moderator reads every seat's secrets
    assert render_view(g.view(None), rs.game_board().drawable, focus=True)[:4] == b"\x89PNG"
    play(g, seat, g.legal_texts(seat, limit=1)[0])  # the first legal action is accepted


def test_a_table_verb_the_game_lacks_leaves_no_reference_cycle():
    """Issue 25: a tabletop `roll` is first offered to the game's own parser, which refuses it. The
    refusal was kept with its traceback, which holds the parser's frame, which held the refusal: a cycle
    that only the garbage collector frees, with every frame, state and action it reaches (55 objects an
    order). Under load they piled up until full collections of 50-120 ms paused every game's orders."""
    import gc

    from engine.modes import turns
    g = gondor("tabletop")
    seat = turns.to_act(g.state)
    play(g, seat, "roll 2d6 for warm-up")
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for i in range(5):
            action, _ = play(g, seat, f"roll 2d6 for t{i}")
        gc.collect()
        garbage = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert g.ruleset.format(action) == "roll 2d6 for t4"  # the table's roll, applied
    assert garbage == []


# ------------------------------------------------------------------ a table verb's copy of the state
def _touch_cases():
    """(game, seat, order) for every table verb that declares the parts of the state it writes."""
    from engine.modes.table import VERBS
    from engine.modes import turns

    g = gondor("tabletop")
    seat = turns.to_act(g.state)
    cases = {"roll": (g, seat, "roll 2d6 for the gate"), "set": (g, seat, "set morale 3"),
             "done": (g, seat, "done"), "whisper": (risk(mode="enforced"), "evil", "whisper good meet me"),
             "say": (risk(mode="enforced", whispers="public-only"), "evil", "say good hi there")}
    declared = {v for v, o in VERBS.items() if o.touches is not None}
    assert declared == set(cases), declared  # a new declaration gets its case here
    return cases


@pytest.mark.parametrize("verb", ["roll", "set", "done", "whisper", "say"])
def test_a_table_verb_writes_only_the_parts_of_the_state_it_declares(verb):
    """Issue 25: a table verb that declares ``touches`` works on a copy of those parts only (``copy_parts``),
    the rest shared with the live state. If its apply wrote anything else, the live game (and every state
    sharing that part) would change with a refused or a later-undone order: the live state stays exactly as
    it was, and the result is the one a copy of the whole state gives."""
    from engine.core import clone

    g, seat, text = _touch_cases()[verb]
    rs = g.ruleset
    before = clone(g.state)
    action = g.parse(seat, text)
    work = rs.work_copy(g.state, action)
    events = rs.apply(work, seat, action)
    whole = clone(before)
    assert rs.apply(whole, seat, action) == events
    assert g.state == before  # the live state: not one part written
    assert work == whole  # the same result as on a whole copy
    shared = [k for k in g.state if work[k] is g.state[k] and isinstance(g.state[k], (dict, list))]
    assert "units" in shared or "territories" in shared or len(shared) >= 3  # the copy is partial indeed


def test_a_wrong_touches_declaration_is_caught(monkeypatch):
    """The check above fails when a verb writes a part it did not declare: `roll` draws dice, so declaring
    only the table leaves the dice shared, and the live game's dice advance."""
    import dataclasses

    from engine.core import clone
    from engine.modes.table import VERBS

    monkeypatch.setitem(VERBS, "roll", dataclasses.replace(VERBS["roll"], touches=("table",)))
    g, seat, text = gondor("tabletop"), None, "roll 2d6"
    from engine.modes import turns
    seat = turns.to_act(g.state)
    before = clone(g.state)
    action = g.parse(seat, text)
    g.ruleset.apply(g.ruleset.work_copy(g.state, action), seat, action)
    assert g.state != before and g.state["dice"] != before["dice"]


def test_an_inner_order_works_on_a_whole_copy():
    """An order of the game itself (not a table verb) may write any part: its copy shares nothing."""
    g = gondor("assist")
    seat = g.active_seats()[0]
    action = g.parse(seat, g.legal_texts(seat, limit=1)[0])
    work = g.ruleset.work_copy(g.state, action)
    assert work == g.state and not [k for k in g.state if isinstance(g.state[k], (dict, list)) and work[k] is g.state[k]]
