"""lmms-eval helpers for a geomrender dataset (written by `geomrender export`).

doc_to_visual / doc_to_text / process_results follow lmms-eval's task guide; the
process_docs_* functions pick one (axis, value) of the dataset per task.

A row with `choices` is a relation item (multiple choice, `answer` the correct
option's letter), handled as lmms-eval's multiple-choice tasks handle theirs
(lmms_eval/tasks/scienceqa/utils.py, ai2d/utils.py, mmmu/utils.py): the prompt lists
the options "A. ... B. ..." (the question already ends with them: they are not
repeated) and the answer read is scored against the letter (`accuracy`). Other rows
are GeomVerse problems: a number, scored by relaxed accuracy.

Answers are read by the rules of `geomrender score` (src/score/normalize.rs and
src/score/extract.rs, the reference): this is a line-by-line port of its cascade,
for numeric items and for items with choices (option letters, options named by their
text as src/score/option_text.rs reads them; a number counts as the numeric option it
matches, src/score/accuracy.rs), held to it by
tests/python/test_lmms_eval.py, which feeds the same outputs to both and compares
value, rule and verdict. Where Python and Rust class a
non-ASCII character differently (a superscript digit, a combining mark or a circled
letter next to a word), a rare text may still read differently; ASCII, LaTeX and the Unicode signs the
rules name read the same.
"""

import math
import re
import sys

# GeomVerse's solutions end with this sentence; asking for it makes answers extractable.
INSTRUCTION = (
    "Solve the problem step by step. End your answer with the sentence "
    "'Therefore the final answer is N.' where N is a number."
)
# The same for a relation item: its answer is the option's letter.
CHOICE_INSTRUCTION = (
    "Solve the problem step by step. End your answer with the sentence "
    "'Therefore the final answer is X.' where X is the letter of the correct option."
)
# Relaxed accuracy: correct within 3 % of the label (GeomVerse), 0.005 for a label of 0.
TOLERANCE = 0.03
ZERO_TOLERANCE = 0.005


def doc_to_visual(doc):
    """The row's image; none for a text-only row (modality=text-only), whose image is null."""
    image = doc["image"]
    return [] if image is None else [image.convert("RGB")]


def options_text(choices):
    """The options as a relation item's question lists them: "Answer choices: A. x B. y"
    (src/generate/relations/text.rs, `question`)."""
    return "Answer choices: " + " ".join(f"{chr(65 + i)}. {c}" for i, c in enumerate(choices))


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    choices = doc.get("choices")
    if choices is None:
        return f"{doc['question']}\n{INSTRUCTION}"
    question, listed = doc["question"], options_text(choices)
    if not question.rstrip().endswith(listed):
        question = f"{question} {listed}"
    return f"{question}\n{CHOICE_INSTRUCTION}"


# --- normalize.rs -------------------------------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_VALUE = re.compile(
    r"""(?x)
    (?P<sign>-\s?)?
    (?:
        \\frac\s*\{\s*(?P<fnum>NUM)?\s*(?P<fpi>π)?\s*\}\s*\{\s*(?P<fden>NUM)\s*\}
      | \\frac\s*(?P<fsn>\d)(?P<fsd>\d)
      | (?P<coef>NUM)?\s*√\s*(?:\{\s*(?P<r1>NUM)\s*\}|\(\s*(?P<r2>NUM)\s*\)|(?P<r3>NUM))
      | (?P<a>NUM)
        (?:\s*/\s*(?P<b>NUM))?
        (?:[eE](?P<e1>[-+]?\d+)|\s*(?:×|\*|·|x)\s*10\s*\^\s*\{?\s*(?P<e2>[-+]?\d+)\s*\}?)?
        (?:\s*(?P<pi>π))?
      | (?P<lonepi>π)
    )""".replace("NUM", _NUM)
)
_MAX_PASSES = 8
_DIGIT_GROUP = re.compile(r"(\d)(?:\\,|\{,\}|[\u00A0\u2009\u202F])(\d{3})")
_TEXT_CMD = re.compile(
    r"\\(?:text|mathrm|textbf|mathbf|textit|mathit|mbox|operatorname)\s*\{([^{}]*)\}"
)
_DEGREE = re.compile(
    r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ|\\degree|[◦º˚]|\^\s*\{\s*°\s*\}|\^°"
)
_SUPERSCRIPT_EXP = re.compile(r"10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_FRAC_VARIANT = re.compile(r"\\[dt]frac\b")
_SPACING = re.compile(r"\\[,;:! ]|\\quad|\\qquad|\\left\b|\\right\b|\\displaystyle")
_MATH_DELIM = re.compile(r"\\[()\[\]]|\$")
_PRECISION = re.compile(
    r"^\s*(?i:decimal\s+(?:places?|digits?)|decimals\b|significant\s+(?:figures?|digits?)"
    r"|sig\.?\s*figs?\b|d\.p\.|dp\b|s\.f\.)"
)
_CHARS = str.maketrans({
    "\u2212": "-", "\u2012": "-", "\uFE63": "-", "\uFF0D": "-",
    "\u2019": "'", "\u2018": "'", "\u22C5": "·", "\u2219": "·", "\u2217": "*",
    "\r": " ", "\t": " ",
    # Python's str.isspace (and so re's \s and str.strip) counts U+001C–U+001F as
    # spaces, Rust's char::is_whitespace does not: make them a plain control character.
    "\x1c": "\x01", "\x1d": "\x01", "\x1e": "\x01", "\x1f": "\x01",
})
_SUPERSCRIPTS = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")


def _until_stable(pattern, replacement, s):
    for _ in range(_MAX_PASSES):
        following = pattern.sub(replacement, s)
        if following == s:
            break
        s = following
    return s


def normalize_text(raw):
    """Markdown / LaTeX / Unicode notations rewritten into plain text (normalize_text)."""
    s = raw.translate(_CHARS)
    s = _until_stable(_DIGIT_GROUP, r"\1,\2", s)
    s = _until_stable(_TEXT_CMD, r" \1", s)
    s = _DEGREE.sub("°", s)
    s = _SUPERSCRIPT_EXP.sub(lambda m: "10^{" + m.group(1).translate(_SUPERSCRIPTS) + "}", s)
    s = _FRAC_VARIANT.sub(r"\\frac", s)
    for latex, plain in [("\\pi", "π"), ("\\times", "×"), ("\\cdot", "·"), ("\\approx", "≈"),
                         ("\\sqrt", "√"), ("\\%", "%"), ("\\{", "{"), ("\\}", "}")]:
        s = s.replace(latex, plain)
    s = _SPACING.sub(" ", s)
    s = _MATH_DELIM.sub(" ", s)
    s = s.replace("**", "").replace("__", "").replace("`", "")
    return s.replace("\u00A0", " ").replace("\u2009", " ").replace("\u202F", " ")


def _sign_allowed(before):
    """A `-` is a sign at the start, after spaces, brackets, operators or punctuation."""
    return not before or not (before[-1].isalnum() or before[-1] in ").}")


def _number_allowed(before):
    """A number may not continue a word or sit in an exponent or subscript."""
    trimmed = before.rstrip(" {")
    exponent = trimmed.endswith("^") or trimmed.endswith("_")
    glued = bool(before) and (before[-1].isalpha() or before[-1] in "^_\\")
    return not exponent and not glued


def _num(m, name):
    """A group as a float, None when absent or not ASCII digits (as Rust's parser)."""
    text = m.group(name)
    if text is None:
        return None
    text = text.replace(",", "")
    return float(text) if text.isascii() else None


def _exponent(text):
    """The exponent as Rust's i32 parser reads it: None past i32 or on non-ASCII digits."""
    text = text.lstrip("+")
    if not text.isascii():
        return None
    e = int(text)
    return e if -(2**31) <= e < 2**31 else None


def _powi(a, b):
    """f64::powi: repeated squaring, then one reciprocal (bit for bit the same)."""
    recip, b, r = b < 0, abs(b), 1.0
    while True:
        if b & 1:
            r *= a
        b >>= 1
        if b == 0:
            break
        a *= a
    return 1.0 / r if recip else r


def _divide(n, d):
    return n / d if d != 0 else None


def _magnitude(m):
    if m.group("fden") is not None:
        n, pi = _num(m, "fnum"), m.group("fpi") is not None
        if n is None and not pi:
            return None
        numerator = math.pi if n is None else n * math.pi if pi else n
        d = _num(m, "fden")
        return None if d is None else _divide(numerator, d)
    if m.group("fsn") is not None:
        n, d = _num(m, "fsn"), _num(m, "fsd")
        return None if n is None or d is None else _divide(n, d)
    radicand = next((r for r in (_num(m, g) for g in ("r1", "r2", "r3")) if r is not None), None)
    if radicand is not None:
        coef = _num(m, "coef")
        return (1.0 if coef is None else coef) * math.sqrt(radicand)
    if m.group("lonepi") is not None:
        return math.pi
    v = _num(m, "a")
    if v is None:
        return None
    if m.group("b") is not None:
        b = _num(m, "b")
        v = None if b is None else _divide(v, b)
        if v is None:
            return None
    e = m.group("e1") if m.group("e1") is not None else m.group("e2")
    if e is not None:
        e = _exponent(e)
        if e is None:
            return None
        v *= _powi(10.0, max(-400, min(400, e)))
    if m.group("pi") is not None:
        v *= math.pi
    return v


def _read(text, m):
    """One number match as (value, start, end), or None (read_captures)."""
    start = m.start()
    negative = m.group("sign") is not None
    if negative and not _sign_allowed(text[:start]):
        negative = False
        start = m.end("sign")
        start += len(text[start:]) - len(text[start:].lstrip())
    if not _number_allowed(text[:start]):
        return None
    magnitude = _magnitude(m)
    if magnitude is None:
        return None
    value = -magnitude if negative else magnitude
    return (value, start, m.end()) if math.isfinite(value) else None


def find_values(text):
    """Every number of `text` as (value, start, end), in order (find_values)."""
    found = (_read(text, m) for m in _VALUE.finditer(text))
    return [v for v in found if v is not None and not _PRECISION.match(text[v[2]:])]


def parse_value(text):
    """`text` as exactly one number, else None (parse_value: a numeric option)."""
    norm = normalize_text(text)
    values = find_values(norm)
    if not values or norm[: values[0][1]].strip():
        return None
    return values[0][0]


# --- extract.rs -----------------------------------------------------------------------

_CLAUSE_MAX = 300
_TRIGGERS = [
    ("final_answer", r"(?i)\bfinal[\s_]+answer\"?\s*(?:is\b|:|=)\s*:?"),
    ("boxed", None),
    ("answer_is", r"(?i)\banswers?\"?\s*(?:is\b|:|=)\s*:?"),
    ("geoeval_value_of", r"(?i)\bvalue of\s+\w+\s+is\b"),
    ("geoeval_answer_should_be", r"(?i)\banswer should be\b"),
    ("geoeval_answer_to_degrees", r"(?i)\banswer to\s+[^\n]{1,80}?\s+is\b"),
    ("geoeval_answer_to_problem", r"(?i)\banswer to (?:the |this )?(?:problem|question)\s+is\b"),
    ("geoeval_closest", r"(?i)\bthe closest\s+\w+(?:\s+\w+)?\s+is\b"),
    ("geoeval_equal_to", r"(?i)\bthe\s+[^\n.]{1,120}?\s+is\s+equal\s+to\b"),
    ("geoeval_approximately",
     r"(?i)\b(?:is|are|equals|of)\s+(?:approximately|approx\.|about|roughly|around)\s"),
]
_CASCADE = [(rule, re.compile(p) if p else None) for rule, p in _TRIGGERS]
_TRIGGER = dict(_CASCADE)
_SENTENCE_END = re.compile(r"\.(?:\s|\Z)|[\n;!?]")
_BREAK = re.compile(
    r"(?i)\s\((?:[a-z])|,\s|\s(?:since|because|as|where|which|so|and|but|given|if|when|while"
    r"|from|rounded|or)\s"
)
_LEADING = re.compile(r"^(?:[\s:*=\x22'“{]|\\boxed\s*\{|\\fbox\s*\{)+")
_OPEN_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_REFUSAL = re.compile(r"""(?ix)
    (?P<undecided>
        \b(?:cannot|can't|can\s+not)\s+be\s+(?:determined|inferred|concluded|established|deduced|told|known)
      | \b(?:impossible|not\s+possible)\s+to\s+(?:determine|tell|infer|conclude|deduce|say)
      | \b(?:not\s+enough|insufficient)\s+(?:information|data)
      | \b(?:undetermined|indeterminate|undeterminable|not\s+determinable)\b
    )
  | \b(?:cannot|can't|can\s+not)\s+be\s+(?:computed|calculated|found|answered|solved)
  | \bcan(?:not|'t|\s+not)\s+(?:determine|compute|calculate|find|answer|solve|tell|be\s+determined)
  | \bunable\s+to\s+(?:determine|compute|calculate|find|answer|solve|tell)
  | \b(?:impossible|not\s+possible)\s+to\s+(?:compute|calculate|find|answer|solve)
  | \bno\s+(?:answer|solution)\b
  | \bi\s+(?:do\s+not|don't)\s+know\b
  | \bN/A\b
""")
_LISTED = re.compile(r"^\s*(?:[-•*]\s+)?\(?[A-Za-z][.):]\s*\Z")
# The "Cannot be inferred" option of GeomRel (src/generate/relations: CANNOT_BE_INFERRED).
CANNOT_BE_INFERRED = "Cannot be inferred"


def _head(s):
    """The first 300 UTF-8 bytes of `s` (fewer, to end on a character boundary)."""
    size = 0
    for i, c in enumerate(s):
        code = ord(c)
        size += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
        if size > _CLAUSE_MAX:
            return s[:i]
    return s


def _clause_after(tail):
    line = _head(tail.lstrip()).split("\n", 1)[0]
    end = _SENTENCE_END.search(line)
    return line[: end.start()] if end else line


# --- letters.rs: option letters as models write them, and hedges -------------------

_TOKEN = re.compile(
    r"^(?i:(?:either|both)\s+)?((?i:option|choice)(?:\s+is)?\s*:?\s*)?(\(|\[)?([A-Za-z])(\)|\])?"
)
_JOIN = re.compile(r"^(?i:\s*(?:,|/|&)\s*(?:(or|and)\s+)?|\s+(or|and/or|nor|and)\s+)")


def _token_at(s):
    """A letter token at the start of `s`: (option index, length), or None. Upper case
    is read wherever the rules look; lower case only where it cannot be a word:
    bracketed, before punctuation or the end, or after "option"/"choice" (token_at)."""
    m = _TOKEN.match(s)
    if m is None:
        return None
    named, opened, closed = m.group(1) is not None, m.group(2) is not None, m.group(4) is not None
    end = m.end()
    nxt = s[end] if end < len(s) else None
    letter = m.group(3)
    if closed:  # "(c)", "[C]", "C)": nothing glued after it
        readable = nxt is None or not nxt.isalnum()
    elif letter.isupper():
        readable = nxt is None or nxt.isspace() or nxt in ".:,;!?)]*/&'\"”"
    else:
        readable = nxt is None or nxt in ".:,;!?)]/&'\"”" or (named and nxt.isspace())
    return (ord(letter.upper()) - 65, end) if readable else None


def _tokens_at(s):
    """The options a text starting with a token names, in order without repeats, and
    the length of the tokens and their joins; "and"-lists before more words name the
    first only ("A and B are parallel") (tokens_at)."""
    first = _token_at(s)
    if first is None:
        return None
    named, end, alternatives = [first[0]], first[1], False
    while True:
        join = _JOIN.match(s[end:])
        if join is None:
            break
        nxt = _token_at(s[end + join.end():])
        if nxt is None:
            break
        word = join.group(1) or join.group(2)
        alternatives |= "/" in join.group(0) or (word is not None and word.lower() != "and")
        if nxt[0] not in named:
            named.append(nxt[0])
        end += join.end() + nxt[1]
    rest = s[end:].lstrip()
    if len(named) > 1 and not alternatives and rest[:1].isalnum():
        return [first[0]], first[1]
    return named, end


def _whole_reply(text):
    """The options named by a reply of letter tokens only ("C", "(c).", "A or B"),
    or None (whole_reply)."""
    start = 0
    while start < len(text) and (text[start].isspace() or text[start] in "(*."):
        start += 1
    s = text[start:]
    found = _tokens_at(s)
    if found is None:
        return None
    named, end = found
    return named if all(c.isspace() or c in ".:!*)" for c in s[end:]) else None


class _Hedge:
    """A reading that names several options (Reading::Hedged): no answer, "hedged"."""

    def __init__(self, options):
        self.options = options


def _read_answer(clause, choices=None):
    """Option letters at the clause's start (items with choices: one, or a _Hedge of
    several), else the first number of its head, after the last `=`/`≈`:
    (answer, rest)."""
    lead = _LEADING.match(clause)
    stripped = clause[lead.end():] if lead else clause
    found = _tokens_at(stripped) if choices is not None else None
    if found is not None:
        named, length = found
        if len(named) > 1:
            return _Hedge(named), stripped[length:]
        if named[0] < choices:
            return _option_letter_of(named[0]), stripped[length:]
    cut = _BREAK.search(stripped)
    head = stripped[: cut.start()] if cut else stripped
    sign = max(head.rfind("="), head.rfind("≈"))
    start = sign + 1 if sign >= 0 else 0
    values = find_values(head[start:])
    if not values:
        return None
    value, _, end = values[0]
    return value, stripped[start + end:]


def _phrase(rule, trigger, text, choices):
    """`choices`: the number of options, None for a numeric item."""
    for m in reversed(list(trigger.finditer(text))):
        found = _read_answer(_clause_after(text[m.end():]), choices)
        if found is None:
            continue
        rest = found[1].lstrip().lower()
        if rule != "geoeval_answer_to_degrees" or rest.startswith(("°", "degree")):
            return True, found[0]
    return False, None


def _boxed(text, choices):
    closing, open_at = {}, []
    for i, c in enumerate(text):
        if c == "{":
            open_at.append(i)
        elif c == "}" and open_at:
            closing[open_at.pop()] = i
    for m in reversed(list(_OPEN_BOX.finditer(text))):
        content = text[m.end(): closing.get(m.end() - 1, len(text))]
        found = _read_answer(_head(content), choices)
        if found is not None:
            return True, found[0]
    return False, None


_NAMED = re.compile(r"\b(?i:option|choice)\b|\([A-Za-z]\)\s+is\s+(?i:the\s+)?(?i:correct|right|answer)")


def _option_letter(text, choices):
    """"option C", "the correct choice is (c)", "(C) is correct", or a reply of letters
    only: the last within the options; one naming several is a _Hedge
    (option_letter_rule)."""
    candidates, covered = [], 0
    for m in _NAMED.finditer(text):
        if m.start() < covered:
            continue
        found = _tokens_at(text[m.start():])
        if found is None:
            continue
        covered = m.start() + found[1]
        candidates.append(found[0])
    whole = _whole_reply(text)
    if whole is not None:
        candidates.append(whole)
    for named in reversed(candidates):
        if len(named) > 1:
            return True, _Hedge(named)
        if named[0] < choices:
            return True, _option_letter_of(named[0])
    return False, None


def _refusal(text, choices=None):
    """A refusal with no number after it: no answer; one saying the problem is
    undecided ("It cannot be determined.") is the "Cannot be inferred" option where the
    item has it (refusal). "D. Cannot be inferred" on its own line is a listed option."""
    last = None
    for m in _REFUSAL.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if not _LISTED.match(text[line_start:m.start()]):
            last = m
    if last is None or find_values(text[last.end():]):
        return False, None
    if last.group("undecided") is not None and choices is not None and CANNOT_BE_INFERRED in choices:
        return True, _option_letter_of(choices.index(CANNOT_BE_INFERRED))
    return True, None


# --- option_text.rs ---------------------------------------------------------------
# An option named by its text, for items with choices: after an answer trigger ("The
# answer is Parallel.", "Answer: cannot be inferred"), else lines that are only an
# option ("**Perpendicular**", "D. Cannot be inferred") when they all name the same.

_OPTION_LINE = re.compile(
    r"""^\s*(?:[#>]+\s*|[-•*]\s+)?(?:\(?([A-Z])(?:\)|[.):])\s*)?(.+?)[\s.!"'\])]*\Z"""
)


def _option_letter_of(index):
    """The letter of option `index` (option_letter: 0 -> "A", "?" past "Z")."""
    return chr(65 + index) if index < 26 else "?"


def _is_word(c):
    return c.isalnum() or c == "_"


def _option_texts(choices):
    """The option texts an answer can be read from: (index, normalised text), longest
    first; numeric options are left to the numeric rules (Options::new)."""
    texts = [(i, normalize_text(c).strip()) for i, c in enumerate(choices)]
    texts = [(i, t) for i, t in texts if t and parse_value(t) is None]
    texts.sort(key=lambda it: (-len(it[1]), it[0]))
    return texts


def _prefix_len(hay, option):
    """Characters of `hay` that spell `option` from its start (case-insensitive, a run
    of whitespace for each space), ending at a word boundary; None if it does not."""
    i, n = 0, len(hay)
    for o in option:
        if o.isspace():
            # One or more whitespace characters.
            if i >= n or not hay[i].isspace():
                return None
            while i < n and hay[i].isspace():
                i += 1
            continue
        if i >= n:
            return None
        c = hay[i]
        i += 1
        if c != o and c.lower() != o.lower():
            return None
    last_is_word = bool(option) and _is_word(option[-1])
    next_is_word = i < n and _is_word(hay[i])
    return None if last_is_word and next_is_word else i


def _option_at(options, hay):
    """The longest option `hay` starts with, at a word boundary: (index, length)."""
    for index, option in options:
        length = _prefix_len(hay, option)
        if length is not None:
            return index, length
    return None


def _negated(before):
    """Whether the word just before an option negates it ("not", "isn't", "never")."""
    s = before.rstrip()
    start = len(s)
    while start > 0 and (_is_word(s[start - 1]) or s[start - 1] == "'"):
        start -= 1
    word = s[start:].lower()
    return word in ("not", "no", "never", "nor") or word.endswith("n't")


def _first_named(options, clause):
    """The first option named in `clause` that no negation precedes (first_named)."""
    at = 0
    while at < len(clause):
        starts_word = at == 0 or not _is_word(clause[at - 1])
        found = _option_at(options, clause[at:]) if starts_word else None
        if found is not None:
            if not _negated(clause[:at]):
                return found[0]
            at += found[1]
            continue
        at += 1
    return None


def _whole_line(options, line):
    """The option a whole line is, optionally after its letter, which must agree."""
    m = _OPTION_LINE.match(line)
    if m is None:
        return None
    body = m.group(2)
    found = _option_at(options, body)
    if found is None:
        return None
    index, length = found
    letter = m.group(1)
    if length == len(body) and (letter is None or ord(letter) - 65 == index):
        return index
    return None


def _option_text(text, choices):
    """The index of the option `text` names by its text, or None (option_text_rule)."""
    options = _option_texts(choices)
    if not options:
        return None
    spans = sorted((m.start(), m.end())
                   for trigger in (_TRIGGER["final_answer"], _TRIGGER["answer_is"],
                                   _TRIGGER["geoeval_answer_should_be"], _OPEN_BOX)
                   for m in trigger.finditer(text))
    for _, end in reversed(spans):
        index = _first_named(options, _clause_after(text[end:]))
        if index is not None:
            return index
    # str.lines: lines split at "\n", one trailing "\r" dropped.
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    named = [i for i in (_whole_line(options, line) for line in lines) if i is not None]
    return named[-1] if named and all(i == named[-1] for i in named) else None


def extract_with_rule(text, choices=None):
    """(the answer read, the rule that read it) as `geomrender score` reads it: a
    number, or for an item with `choices` (its options' texts, in order) also an
    option letter ("C"); (None, "refusal") for a refusal, (None, "hedged") for an
    answer naming several options, (None, "none") for nothing."""
    text = normalize_text(text or "")
    count = None if choices is None else len(choices)
    for rule, trigger in _CASCADE:
        if trigger is None:
            fired, value = _boxed(text, count)
        else:
            fired, value = _phrase(rule, trigger, text, count)
        if fired:
            return (None, "hedged") if isinstance(value, _Hedge) else (value, rule)
        if rule == "answer_is" and choices is not None:
            index = _option_text(text, choices)
            if index is not None:
                return _option_letter_of(index), "option_text"
    if choices is not None:
        fired, letter = _option_letter(text, count)
        if fired:
            return (None, "hedged") if isinstance(letter, _Hedge) else (letter, "option_letter")
    fired, value = _refusal(text, choices)
    if fired:
        return value, "refusal"
    values = find_values(text)
    return (values[-1][0], "last_number") if values else (None, "none")


def extract(text):
    """The number `geomrender score` reads from a model output; None if none."""
    return extract_with_rule(text)[0]


def relaxed_correct(prediction, answer):
    """GeomVerse's relaxed accuracy, bounds inclusive with a few ulps of slack."""
    if prediction is None:
        return False
    allowed = ZERO_TOLERANCE if answer == 0 else TOLERANCE * abs(answer)
    slack = 4.0 * sys.float_info.epsilon * max(abs(answer), abs(prediction))
    return abs(prediction - answer) <= allowed + slack


def choice_correct(answer, label, choices):
    """Whether an answer read for a multiple-choice item is its letter `label`: a
    letter must be it; a number counts as the numeric option it matches (the nearest
    of those within the tolerance), as `geomrender score` scores it (accuracy.rs)."""
    if answer is None:
        return False
    if isinstance(answer, str):
        return answer == label
    matching = [(i, v) for i, v in enumerate(map(parse_value, choices))
                if v is not None and relaxed_correct(answer, v)]
    if not matching:
        return False
    nearest, _ = min(matching, key=lambda iv: abs(iv[1] - answer))
    return chr(65 + nearest) == label


def process_results(doc, results):
    text = results[0] if results else ""
    choices = doc.get("choices")
    if choices is not None:
        answer, _ = extract_with_rule(text, choices)
        return {"accuracy": 1.0 if choice_correct(answer, doc["answer"], choices) else 0.0}
    prediction = extract(text)
    return {"relaxed_accuracy": 1.0 if relaxed_correct(prediction, doc["answer"]) else 0.0}


def _select(dataset, axis, value):
    """The rows of one (axis, value). Only the two text columns are read
    (input_columns), so no image is decoded."""
    return dataset.filter(
        lambda axes, values: [a == axis and v == value for a, v in zip(axes, values)],
        input_columns=["axis", "value"],
        batched=True,
        batch_size=10_000,
    )
