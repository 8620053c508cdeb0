"""The chat word filter: ``python -m bench.chat [--quick]``.

Builds moderation.wordfilter.WordFilter from the shipped list (moderation.words) and measures:
how fast ``check`` reads a realistic mix of chat lines (most clean, a fifth with a disguised
listed word), what share of the generated disguises of every listed word it catches
(moderation.disguises), and how many lines of a clean corpus it refuses or masks. The clean corpus
is every string of the Arabic catalogue, the rules (templates, docs/rules, and the specification
in /work/shared/rules when that exists), the quick chat phrases of the table, and CHAT_LINES
below: what players type, with words that hold a listed word inside them ("Scunthorpe", "زبدة")
or come near one once folded ("who're", "7amra", red).

The last line is one JSON object: ``lines_per_second``, ``ms_per_line_p50``, ``ms_per_line_p99``,
``caught_share``, ``disguises``, ``false_refusal_share``, ``false_mask_share``, ``clean_lines``,
``quick``. Not a timed test: the target (at most 0.2 ms a line) is read, not asserted.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import random
import re
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench.stats import percentile
from moderation.disguises import Disguise, disguises, missed
from moderation.wordfilter import WordFilter
from moderation.words import STARTING_WORDS

ROOT = Path(__file__).resolve().parents[1]
# The rules' specification lives beside the design notes, outside the repository: read only when
# present, since a clean clone has no such directory.
SPEC_RULES = Path("/work/shared/rules")

# What players type at a table, in Gulf and other Arabic, Arabizi and English ("|" between lines).
CHAT_LINES = tuple(
    line.strip()
    for row in """
السلام عليكم | وعليكم السلام ورحمة الله | هلا والله | هلا وغلا | مساء الخير | صباح النور
حياك الله | الله يحييك | شلونك؟ | شخبارك | بخير الحمد لله | بسم الله | ما شاء الله تبارك الله
إن شاء الله | يلا نبدأ | يلا بسرعة شوي | تكفى العب | دورك يا بطل | لحظة | ثواني بس | الحين أرجع
وين رحت؟ | أنا هنا | معليش يا أخوي | مشكور | الله يعافيك | يعطيك العافية | هههههه | هههههههههههه
خخخخخخ | لعبة حلوة | والله حلوة | لعبتك قوية | حظك حلو | الله يسامحك | ليش رميت الجوكر؟
نزلت ولا لا؟ | ما نزلت للحين | كم النزول؟ واحد وخمسين | هاند! سويت هاند | جاكارو يا شباب
عندي آس | عندي إكة | الآس معي | رميت الشايب | البنت والولد | ورقي خايس اليوم | قلبي معاك
يا محمد وين؟ | عبدالله | خولة | أحمد | حمد | حمود | يا أبو فهد | عندي كلب صغير | الكلب حقي نايم
القطوة نايمة | السيارة الحمراء | الوردة الحمرا | الأحمر حقي | الجو غبار | زبدة الكلام | زبون
زبيب وتمر | طيب | طيبين | كسبت! | كسبنا يا شريك | عرس أخوي بكرة | معرض الكتاب | عرض حلو
فخور فيك | لا تصير بخيل | خير إن شاء الله | خيرها بغيرها | سافرت أمس | تفوز إن شاء الله
فزت | خسرنا | مبروك الفوز | الله يبارك فيك | العب زين | ركز معي | أنت شريكي | جولة ثانية؟
أكيد | تمام | أوكي | زين | والله ما أدري | ما عليه | لا تزعل | آسف يا جماعة | النت ثقيل
النت فصل | علق عندي | تعالوا | نص ساعة وأرجع | بروح أصلي | تقبل الله | رمضان كريم
عيدكم مبارك | كل عام وأنتم بخير | جمعة مباركة | تسلم إيدك | من جدك؟ | لا والله | إيه والله
ولا يهمك | على راسي | أبشر | سم طال عمرك | منورين | نورت | ضحكتني | فديتك | يا حبيبي
يا رجال | يا شيخ | يا خوي | احاول | تفوق عليهم | خرابيط | انقلب الوضع | عرصة البيت | حقيبتي
سافرنا | كيفك | شو في؟ | ماشي | إزيك يا باشا | عامل إيه | يا عم | خلص | بدي ألعب
yalla | yalla bina | wallah 7lwa | 3ashan | ma3lesh | ma3lish ya 5ooy | inshallah | mashallah
alhamdulillah | 7abibi | ya 3ami | ahlan w sahlan | shlonak | shlonk | kifak | zain | 7ayak allah
ya hala | tfaddal | 3adi | 9ba7 el 5air | masa2 el 5air | 5alas | 5alas 5ala9na | el7een
wayed 7lo | ana ta3ban | 7ader | a7san wa7ed | ra7 arja3 | ta3al | 2a7la la3ba | mabrook
mabrook 3al fouz | el warda el 7amra | a7mar | sayartak 7amra | 3rs a5ooy | 3ers | m3ares
fa5oor feek | b5eel | 8albi | ya 8albi | 7amad | mo7ammad | 5awla | 6ayeb | sa7 | 9a7 | bs
nzl | 2nzl | kasabt | 5sert | 3ndi ass | el ass ma3i | yalla nl3ab | la3ibna | 7aqi | ya 3'ali
good game | gg | gg wp | well played | nice move | nice one | hahaha | lol | lmao | omg | brb
afk | one sec | your turn | hurry up please | thanks | thank you | np | no worries | good luck
have fun | glhf | see you | bye | rematch? | one more round | classic | class act | assist
Scunthorpe | I live in Scunthorpe | passion | assassin | bass | grass | glass | pass | massive
cocktail | Dickens | shiitake | shitake | title | therapist | cumulative | document | hello
shell | analysis | arsenal | Sussex | Essex | Pakistan | Nigeria | Niger | snigger | hancock
peacock | cucumber | assume | assessment | who're you playing with? | we're winning | you're good
it's fine | don't worry | can't believe it | that's a classic hand | as you wish | as if | shot
shut the door | sheet | batch | pitch | dock | duck | dice | kite | duke | dike | count | cunning
idiom | maroon | whole | retardant | Matsushita | cockpit | spick and span | pussycat | bitcoin
twitter | kicked | fuchsia | Fukuoka | shih tzu | basement | skills | I'll be back | we'll see
I'd play the joker | I'm out | you've won | 5555 | 10 points | 51 to open | x2 | 4 players
""".strip().splitlines()
    for line in row.split("|")
    if line.strip()
)

_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{[^{}]*\}|<[^>]+>")
_PO_LINE = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")$')
_TEMPLATE_TAG = re.compile(r"{%\s*(?:translate|trans)\s+\"(.*?)\".*?%}|{%.*?%}|{{.*?}}", re.S)
_COMMENT = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", re.S)


def po_strings(path: Path) -> list[str]:
    """Every msgid and msgstr of a .po file but the header, placeholders and tags taken out."""
    entries: list[dict[str, str]] = [{}]
    field = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if entries[-1]:
                entries.append({})
            continue
        found = _PO_LINE.match(line)
        if found:
            field = found.group(1)
            if field in entries[-1]:
                entries.append({})
            entries[-1][field] = ast.literal_eval(found.group(2))
        elif line.startswith('"') and field:
            entries[-1][field] += ast.literal_eval(line)
    strings = []
    for entry in entries:
        if not entry.get("msgid"):
            continue  # the header
        strings += [v for k, v in entry.items() if k != "msgctxt" and v]
    return [_PLACEHOLDER.sub(" ", s) for s in strings]


def template_text(path: Path) -> list[str]:
    """The text of a template: its translated strings and the text between tags."""
    text = _COMMENT.sub(" ", path.read_text(encoding="utf-8"))
    text = _TEMPLATE_TAG.sub(lambda m: f"\n{m.group(1) or ''}\n", text)
    return [html.unescape(_PLACEHOLDER.sub(" ", line)) for line in text.splitlines()]


def quick_phrases(path: Path) -> list[str]:
    """The strings of QUICK_PHRASES, read from the source without importing Django code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "QUICK_PHRASES" for t in node.targets
        ):
            return [
                n.value
                for n in ast.walk(node.value)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
    raise LookupError(f"no QUICK_PHRASES in {path}")


def clean_corpus(root: Path = ROOT, spec: Path = SPEC_RULES) -> list[str]:
    """The lines the filter must let through: catalogue, rules, quick phrases, CHAT_LINES."""
    texts = po_strings(root / "locale/ar/LC_MESSAGES/django.po")
    for game in ("hand", "jakaro"):
        texts += template_text(root / f"templates/games/rules/{game}.html")
        texts.append((root / f"docs/rules/{game}.md").read_text(encoding="utf-8"))
        if (spec / f"{game}.txt").exists():
            texts.append((spec / f"{game}.txt").read_text(encoding="utf-8"))
    texts += quick_phrases(root / "games/views.py")
    texts += CHAT_LINES
    lines = (line.strip() for text in texts for line in text.splitlines())
    return [line for line in lines if any(c.isalnum() for c in line)]


def chat_mix(made: Sequence[Disguise], count: int, seed: int = 1) -> list[str]:
    """``count`` chat lines as a table sees them: four clean lines to one with a disguised word."""
    rng = random.Random(seed)
    return [
        rng.choice(made).text if rng.random() < 0.2 else rng.choice(CHAT_LINES)
        for _ in range(count)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    words = WordFilter(STARTING_WORDS)
    build_ms = (time.perf_counter() - started) * 1000
    print(f"filter of {len(STARTING_WORDS)} entries built in {build_ms:.1f} ms")

    made = disguises(STARTING_WORDS, rounds=1 if args.quick else 4)
    lost = missed(words, made)
    print(f"disguises: {len(made) - len(lost)} of {len(made)} caught")
    for kind, n in Counter(d.kind for d in lost).most_common():
        print(f"  missed {n} {kind}, e.g. {next(d.text for d in lost if d.kind == kind)!r}")

    corpus = clean_corpus()
    verdicts = [words.check(line) for line in corpus]
    refused = [line for line, v in zip(corpus, verdicts, strict=True) if v.refused]
    masked = [line for line, v in zip(corpus, verdicts, strict=True) if v.matched]
    print(f"clean corpus: {len(corpus)} lines, {len(refused)} refused, {len(masked)} masked")
    for line in masked[:10]:
        print(f"  matched in a clean line: {line[:80]!r}")

    lines = chat_mix(made, 5_000 if args.quick else 50_000)
    for line in lines[:500]:
        words.check(line)  # warm up
    times = []
    check = words.check
    clock = time.perf_counter_ns
    for line in lines:
        t0 = clock()
        check(line)
        times.append(clock() - t0)
    seconds = sum(times) / 1e9
    ms = [t / 1e6 for t in times]
    figures = {
        "lines_per_second": round(len(lines) / seconds),
        "ms_per_line_p50": round(percentile(ms, 0.5), 4),
        "ms_per_line_p99": round(percentile(ms, 0.99), 4),
        "caught_share": round((len(made) - len(lost)) / len(made), 4),
        "disguises": len(made),
        "false_refusal_share": round(len(refused) / len(corpus), 4),
        "false_mask_share": round(len(masked) / len(corpus), 4),
        "clean_lines": len(corpus),
        "quick": args.quick,
    }
    p50, p99 = figures["ms_per_line_p50"], figures["ms_per_line_p99"]
    print(f"check: {p50} ms a line (p50), {p99} ms (p99); target 0.2 ms")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
