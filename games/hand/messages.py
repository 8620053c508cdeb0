"""Hand's own refusal codes: stable code -> words a player understands, Arabic and English.

Codes both games share (bad_action, not_your_turn, match_over, no_such_seat, server_only,
bad_options, bad_players) live in games/messages.py; ``IllegalAction.message(lang)`` looks here
first, then there. The codes are part of the contract (scenario files, the client, the match
log): never rename one; add new ones instead.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "bad_card": {
        "ar": "هذه ليست ورقة من أوراق اللعبة.",
        "en": "That is not a card of this game.",
    },
    "round_over": {
        "ar": "انتهت الجولة؛ انتظر الجولة التالية.",
        "en": "The round is over; wait for the next one.",
    },
    "partners_need_four": {
        "ar": "اللعب بالشراكة لأربعة لاعبين فقط.",
        "en": "Partners needs four players.",
    },
    "round_in_play": {
        "ar": "الجولة ما زالت جارية.",
        "en": "The round is still being played.",
    },
    "must_draw": {
        "ar": "اسحب ورقة أولاً: من السحبة أو من كومة النار.",
        "en": "Draw a card first: from the stock or the fire pile.",
    },
    "already_drew": {
        "ar": "سحبت ورقة في هذا الدور.",
        "en": "You have already drawn this turn.",
    },
    "no_draw_first_turn": {
        "ar": "في الدور الأول لا سحب: ارمِ ورقة من أوراقك الخمس عشرة.",
        "en": "No draw on the first turn: throw one of your fifteen cards.",
    },
    "fire_empty": {
        "ar": "كومة النار فارغة.",
        "en": "The fire pile is empty.",
    },
    "fire_unusable": {
        "ar": "لا تستطيع استعمال ورقة النار هذا الدور (ومن لم ينزل يجب أن ينزل بها).",
        "en": (
            "You cannot use the fire card this turn "
            "(if you have not opened, you must open with it)."
        ),
    },
    "card_not_in_hand": {
        "ar": "هذه الورقة ليست في يدك.",
        "en": "That card is not in your hand.",
    },
    "joker_needs_card": {
        "ar": "قل ما الورقة التي يمثلها الجوكر (مثل JK1=QC).",
        "en": "Say which card the joker stands for (like JK1=QC).",
    },
    "joker_bad_card": {
        "ar": "الجوكر يمثل ورقة عادية فقط.",
        "en": "A joker can only stand for an ordinary card.",
    },
    "meld_two_jokers": {
        "ar": "جوكر واحد فقط في كل تنزيلة.",
        "en": "Only one joker per meld.",
    },
    "meld_too_short": {
        "ar": "التنزيلة ثلاث أوراق على الأقل.",
        "en": "A meld needs at least three cards.",
    },
    "meld_same_suit_twice": {
        "ar": "في المجموعة لا يتكرر الشكل.",
        "en": "A set cannot hold the same suit twice.",
    },
    "meld_not_run_or_set": {
        "ar": "التنزيلة إما تسلسل من شكل واحد أو مجموعة من رقم واحد.",
        "en": "A meld is either a run in one suit or a set of one rank.",
    },
    "meld_card_twice": {
        "ar": "لا تتكرر الورقة نفسها في التسلسل.",
        "en": "A run cannot hold the same card twice.",
    },
    "meld_not_in_sequence": {
        "ar": "أوراق التسلسل يجب أن تكون متتالية (بلا لفّ من الشايب إلى الإكّة إلى ٢).",
        "en": "A run's cards must follow each other (no wrapping King-Ace-2).",
    },
    "opening_too_low": {
        "ar": "النزول لا يصل إلى الحد المطلوب.",
        "en": "This opening does not reach the points needed.",
    },
    "opening_needs_fire_card": {
        "ar": "أخذت من كومة النار: يجب أن تنزل بهذه الورقة.",
        "en": "You took from the fire pile: your opening must use that card.",
    },
    "not_opened": {
        "ar": "لا تستطيع هذا قبل أن تنزل.",
        "en": "You cannot do that before you have opened.",
    },
    "no_card_to_throw": {
        "ar": "يجب أن تبقى لك ورقة ترميها (غير الجوكر).",
        "en": "You must keep a card to throw (not a joker).",
    },
    "fire_card_unused": {
        "ar": "استعمل ورقة النار التي أخذتها قبل أن ترمي.",
        "en": "Use the fire card you took before you throw.",
    },
    "joker_unused": {
        "ar": "نزّل الجوكر الذي أخذته قبل أن ترمي.",
        "en": "Lay down the joker you took before you throw.",
    },
    "cannot_throw_joker": {
        "ar": "الجوكر لا يُرمى.",
        "en": "A joker may never be thrown.",
    },
    "bad_meld_index": {
        "ar": "لا توجد تنزيلة بهذا الرقم.",
        "en": "There is no meld with that number.",
    },
    "lay_off_no_fit": {
        "ar": "هذه الورقة لا تركب على هذه التنزيلة.",
        "en": "That card does not fit that meld.",
    },
    "swap_no_joker": {
        "ar": "لا جوكر في هذه التنزيلة.",
        "en": "There is no joker in that meld.",
    },
    "swap_wrong_cards": {
        "ar": "لأخذ الجوكر ضع الورقة (أو الورقتين) التي يمثلها بالضبط.",
        "en": "To take the joker, put down exactly the card (or two cards) it stands for.",
    },
    "joker_no_use": {
        "ar": "لا تستطيع تنزيل هذا الجوكر في هذا الدور، فلا تأخذه.",
        "en": "You could not lay that joker down this turn, so you cannot take it.",
    },
    "swap_used_this_turn": {
        "ar": "نزّل الجوكر الأول قبل أن تأخذ جوكراً آخر.",
        "en": "Lay down the first joker before taking another.",
    },
}
