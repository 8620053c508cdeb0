# Day first in English too ("1 December 2026, 6:12 PM"): one order of dates on every page.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, g:i A"
TIME_FORMAT = "g:i A"
SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = "j/n/Y g:i A"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
