#!/usr/bin/env python3
"""An example airline agent that speaks in words only, for ark's remote-agent protocol
(docs/remote_agents.md), as a language-model agent would: it reads the customer's messages as
text and answers in sentences, with no structured intents. ark's simulated user reads it as it
reads any language agent (docs/users.md).

Run it, then point ark at it:

    python3 examples/text_agent.py --port 8766
    deno task eval --agents http://127.0.0.1:8766/agent --domains airline --suite tasks --runs 1

It uses only the standard library and handles one request well: cancelling a reservation. It
asks for the user id, the reservation id and the reason it still needs, looks the user and the
reservation up, applies the airline policy's cancellation rule (booked within 24 hours, a business
cabin, or travel insurance with a health or weather reason; nothing that has started), states the
cancellation with its refund and asks for a yes, cancels on a yes, and refuses, naming the rule,
when the policy forbids it. Any other request it hands over to a human agent.
"""

import argparse
import json
import re
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USER_ID = re.compile(r"\b[a-z]+_[a-z]+_\d{3,5}\b")
# Six letters and digits with at least one digit, not a flight number.
RESERVATION_ID = re.compile(r"\b(?!HAT\d{3}\b)(?=[A-Z0-9]{0,5}\d)[A-Z0-9]{6}\b")
REASONS = [
    ("airline_cancelled", re.compile(r"\bairline_cancelled\b", re.I)),
    ("change_of_plan", re.compile(r"\bchange_of_plan\b", re.I)),
    ("health", re.compile(r"\b(?:health|ill|sick|medical|hospital)\b", re.I)),
    ("weather", re.compile(r"\b(?:weather|storm|snow|hurricane)\b", re.I)),
    ("airline_cancelled", re.compile(r"\b(?:airline|you) cancell?ed\b|\bflight was cancell?ed\b", re.I)),
    ("change_of_plan", re.compile(r"\bplans? (?:changed|change)\b|\bchange of plans?\b|\bchanged my plans\b", re.I)),
    ("other", re.compile(r"\b(?:personal|something came up|don't need|do not need|other)\b", re.I)),
]
YES = re.compile(r"^\s*(?:yes|yeah|yep|sure|ok(?:ay)?|please do|go ahead|i confirm|confirmed?)\b", re.I)
NO = re.compile(r"\b(?:no|not|don't|do not|wait|stop)\b", re.I)

# Per-episode state, by the episode id ark sends with every request.
episodes = {}


def new_state(body):
    now = (body.get("now") or "2024-05-15T15:00:00")[:19].replace("Z", "")
    return {"now": datetime.fromisoformat(now), "facts": {}, "phase": "talk", "wants_cancel": None, "asked": set(),
            "user": None, "reservation": None}


def learn(state, text):
    """What the customer's words give: ids, the reason, whether they want a cancellation."""
    facts = state["facts"]
    if state["wants_cancel"] is None:
        state["wants_cancel"] = bool(re.search(r"\bcancel", text, re.I))
    for key, pattern in (("user_id", USER_ID), ("reservation_id", RESERVATION_ID)):
        found = pattern.search(text)
        if found and key not in facts:
            facts[key] = found.group(0)
    for reason, pattern in REASONS:
        if "reason" not in facts and pattern.search(text):
            facts["reason"] = reason


def ask_for(state, names):
    """A question for the facts still missing, each asked once; None when one was asked already."""
    words = {"user_id": "user id", "reservation_id": "reservation id", "reason": "reason for cancelling"}
    if any(n in state["asked"] for n in names):
        return None
    state["asked"].update(names)
    return {"type": "message", "text": f"Could you give me your {' and '.join(words[n] for n in names)}?"}


def cancellable(state):
    """Why the policy forbids cancelling the reservation, or None when it allows it."""
    res, reason = state["reservation"], state["facts"].get("reason", "other")
    created = datetime.fromisoformat(res["created_at"][:19])
    if state["now"] - created <= timedelta(hours=24) or res.get("cabin") == "business":
        return None
    if res.get("insurance") == "yes" and reason in ("health", "weather"):
        return None
    return ("it was booked more than 24 hours ago, it is not in business, and "
            + ("its travel insurance does not cover this reason" if res.get("insurance") == "yes"
               else "it has no travel insurance")
            + ", so the policy does not allow cancelling it")


def hand_over(state, why):
    state["phase"] = "over"
    summary = f"The customer asked for help that this agent does not handle: {why}"
    return {"type": "tool", "name": "transfer_to_human_agents", "arguments": {"summary": summary}}


def decide(state, observation):
    """The next action of an episode, from its state and the newest observation."""
    message, tool = observation.get("message"), observation.get("tool")
    if state["phase"] == "over":
        return {"type": "end", "confidence": 0.5}
    if message is not None:
        text = message.get("text") or ""
        if state["phase"] == "confirm":
            if YES.search(text) and not NO.search(text.split(".")[0]):
                state["phase"] = "cancelling"
                return {"type": "tool", "name": "cancel_reservation",
                        "arguments": {"reservation_id": state["facts"]["reservation_id"]}}
            state["phase"] = "over"
            return {"type": "message", "text": "Understood, I have not cancelled anything. Have a good day."}
        learn(state, text)
        if not state["wants_cancel"]:
            return hand_over(state, text[:200])
    if tool is not None:
        if not tool.get("ok"):
            state["phase"] = "over"
            return {"type": "message", "text": "I'm sorry, I could not complete this: " +
                    (tool.get("error") or {}).get("message", "the system did not answer") + "."}
        if tool["name"] == "get_user_details":
            state["user"] = tool.get("result")
        elif tool["name"] == "get_reservation_details":
            state["reservation"] = tool.get("result")
        elif tool["name"] == "cancel_reservation":
            state["phase"] = "over"
            paid = sum(p.get("amount", 0) for p in state["reservation"].get("payment_history", []))
            return {"type": "message", "text": f"Your reservation {state['facts']['reservation_id']} has been "
                    f"cancelled. ${paid} will be refunded to the original payment methods."}
    facts = state["facts"]
    missing = [n for n in ("user_id", "reservation_id") if n not in facts]
    if missing:
        return ask_for(state, missing) or hand_over(state, "the customer could not give " + " and ".join(missing))
    if state["user"] is None:
        return {"type": "tool", "name": "get_user_details", "arguments": {"user_id": facts["user_id"]}}
    if state["reservation"] is None:
        return {"type": "tool", "name": "get_reservation_details", "arguments": {"reservation_id": facts["reservation_id"]}}
    res = state["reservation"]
    if res.get("user_id") != facts["user_id"]:
        state["phase"] = "over"
        return {"type": "message", "text": f"I'm sorry, but I can't cancel reservation {facts['reservation_id']}: "
                "it does not belong to your account."}
    if any(f.get("date", "") <= state["now"].strftime("%Y-%m-%d") for f in res.get("flights", [])):
        return hand_over(state, f"reservation {facts['reservation_id']} has a flight that has already started")
    if "reason" not in facts:
        return ask_for(state, ["reason"]) or hand_over(state, "no reason for cancelling was given")
    why = cancellable(state)
    if why is not None:
        state["phase"] = "over"
        return {"type": "message", "text": f"I'm sorry, but I can't cancel reservation {facts['reservation_id']}: {why}."}
    paid = sum(p.get("amount", 0) for p in res.get("payment_history", []))
    state["phase"] = "confirm"
    return {"type": "message", "text": f"I will cancel reservation {facts['reservation_id']}; the refund of ${paid} "
            "goes back to the original payment methods. Shall I go ahead?"}


def answer(body):
    """The JSON answer to one protocol request."""
    kind, episode = body.get("type"), body.get("episode")
    if kind == "start":
        episodes[episode] = new_state(body)
        return {}
    if kind == "step":
        state = episodes.setdefault(episode, new_state(body))
        return decide(state, body.get("observation") or {})
    if kind == "finish":
        episodes.pop(episode, None)
        return {"confidence": 0.6}
    return {}  # "ping", and anything newer this example does not know


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        try:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            reply, status = answer(body if isinstance(body, dict) else {}), 200
        except Exception as err:  # never crash: a bad request gets a 400 with the reason
            reply, status = {"error": f"{type(err).__name__}: {err}"}, 400
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # keep the output to the one "listening" line


def main():
    parser = argparse.ArgumentParser(description="An example ark agent that speaks in words only (standard library).")
    parser.add_argument("--port", type=int, default=8766, help="port on 127.0.0.1 (default 8766)")
    port = parser.parse_args().port
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/agent", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
