"""Why a Jakaro action was refused: stable codes and the words a player reads (Arabic first).

The codes are part of the engine's contract (scenario files and clients match on them); the
wording may improve freely. Codes both games share (bad_action, not_your_turn, match_over,
no_such_seat, bad_options, bad_players) live in games/messages.py: ``IllegalAction.message(lang)``
looks a code up here first, then there.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "card_not_in_hand": {
        "ar": "هذه الورقة ليست في يدك.",
        "en": "That card is not in your hand.",
    },
    "wrong_card": {
        "ar": "هذه الورقة لا تسمح بهذه الحركة.",
        "en": "That card cannot make this move.",
    },
    "no_marble_in_base": {
        "ar": "لا توجد لديك كرة في القاعدة لإخراجها.",
        "en": "You have no marble in your base to bring out.",
    },
    "start_blocked_own": {
        "ar": "لا يمكنك الإخراج وكرتك تقف على مربع البداية.",
        "en": "You cannot come out while your own marble is on your start.",
    },
    "unknown_marble": {
        "ar": "هذه الكرة غير موجودة.",
        "en": "There is no such marble.",
    },
    "not_your_marble": {
        "ar": "لا يمكنك تحريك هذه الكرة بهذه الورقة.",
        "en": "You cannot move that marble with this card.",
    },
    "marble_in_base": {
        "ar": "هذه الكرة في القاعدة؛ أخرجها أولاً بالإكّة أو الشايب.",
        "en": "That marble is in its base; bring it out first with an Ace or a King.",
    },
    "marble_home": {
        "ar": "هذه الكرة في البيت ولا تتحرك بهذه الورقة.",
        "en": "That marble is home and this card cannot move it.",
    },
    "marble_protected": {
        "ar": "الكرة على مربع بدايتها محمية: لا تحرّكها الخمسة ولا يبدّلها الولد، ولو كانت كرتك.",
        "en": (
            "A marble on its own start is protected: no Five moves it and no Jack swaps it, "
            "even yours."
        ),
    },
    "blocked_protected": {
        "ar": "لا يمكن تجاوز كرة تقف على مربع بدايتها أو النزول عليها.",
        "en": "You cannot pass or land on a marble sitting on its own start.",
    },
    "land_on_own": {
        "ar": "لا يمكنك النزول على كرة من لونك.",
        "en": "You cannot land on a marble of your own colour.",
    },
    "overshoot_home": {
        "ar": "العدد أكبر من الخانات المتبقية إلى البيت؛ يجب أن يكون العد مضبوطاً.",
        "en": "That count goes past the end of the home column; it must be exact.",
    },
    "home_blocked": {
        "ar": "لا يمكن القفز فوق كرة داخل البيت أو النزول عليها.",
        "en": "You cannot jump over or land on a marble inside home.",
    },
    "bad_split": {
        "ar": "تقسيم السبعة يكون بين كرتين مختلفتين وبجزأين مجموعهما سبعة.",
        "en": "A split Seven uses two different marbles and two parts adding up to seven.",
    },
    "bad_swap": {
        "ar": "الولد يبدّل كرة لك على المسار بكرة لون آخر على المسار.",
        "en": "The Jack swaps one of your marbles on the track with another colour's on the track.",
    },
    "nothing_to_burn": {
        "ar": "اللاعب التالي لا يملك أوراقاً لحرقها.",
        "en": "The next player has no cards to burn.",
    },
    "must_play": {
        "ar": "لديك حركة ممكنة، فلا يجوز حرق ورقة.",
        "en": "You have a legal move, so you may not burn a card.",
    },
}

# Reasons only the board page's helper (games/jakaro/guide.py) gives: never a refusal.
MESSAGES["no_swap_target"] = {
    "ar": "لا توجد كرة من لون آخر على المسار يمكن التبديل معها.",
    "en": "There is no other colour's marble on the track to swap with.",
}
MESSAGES["no_split_partner"] = {
    "ar": "لا تمشي السبعة كاملة بهذه الكرة، ولا توجد كرة ثانية تأخذ الباقي.",
    "en": "This marble cannot take the whole Seven, and no second marble can take the rest.",
}
