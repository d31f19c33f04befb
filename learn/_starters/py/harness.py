"""harness.py — the line harness: toolgate writes one JSON input a line on
stdin; this turns each into a call of assess_tool_invocation and writes its
answer as one JSON line on stdout. You do not need to edit it (except
check_input below, the optional last stage).

  python3 harness.py < inputs.jsonl
"""
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True
from assess import assess_tool_invocation  # noqa: E402


def check_input(line):
    """The optional last stage, toolgate's own input check (not the book's):
    return a message to refuse a line the book's function would misread or
    crash on, or None to let it through. It sees the raw text, since
    json.loads keeps only the last of two members of one name."""
    return None


def where(e):
    """The last place in assess.py that the error's traceback names."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if os.path.basename(f.filename) != "harness.py"]
    if not frames:
        return ""
    f = frames[-1]
    return " (%s:%d)" % (os.path.basename(f.filename), f.lineno)


def answer(line):
    try:
        refusal = check_input(line)
        if refusal:
            return {"error": str(refusal)}
        try:
            data = json.loads(line)
        except ValueError as e:
            return {"error": "not JSON: %s" % e}
        if not isinstance(data, dict):
            return {"error": "not a JSON object"}
        verdict = assess_tool_invocation(
            data.get("contract"), data.get("request"), data.get("environment"),
            data.get("approval"), data.get("invocationRecord"))
        if not isinstance(verdict, dict):
            return {"error": "no verdict: assess_tool_invocation returned %r" % (verdict,)}
        return verdict
    except Exception as e:  # the learner's error, shown as theirs
        return {"error": "%s: %s%s" % (type(e).__name__, e, where(e))}


def main():
    # Answers go to stdout, one a line; what your code prints goes to
    # stderr, where toolgate shows it, so that it never breaks a line.
    out = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        verdict = answer(line)
        try:
            text = json.dumps(verdict)
        except (TypeError, ValueError) as e:
            text = json.dumps({"error": "the verdict is not JSON: %s" % e})
        out.write(text + "\n")
        out.flush()


if __name__ == "__main__":
    main()
