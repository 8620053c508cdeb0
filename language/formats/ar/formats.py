# Dates as a Gulf player reads them, day first with the month's name («١ ديسمبر ٢٠٢٦، ٦:١٢ م»):
# Django's own Arabic formats put the month first ("ديسمبر 1, 2026"), which the admin shows.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y، g:i A"
TIME_FORMAT = "g:i A"
SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = "j/n/Y g:i A"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
