"""Rules lookup: entries of every edition, found by name, alias, fuzzy match or question.

Typical use (no discord import here; the cog renders the results)::

    library = load_library()
    result = library.lookup("2h sword", "core")   # LookupResult(entry, score, suggestions, note)
    hits = library.search("shoot into combat", "lrb", limit=5)
    choices = library.suggest("par", "lrb")        # [(display name, entry id), ...]
"""

from .library import RulesLibrary, load_library
from .models import Entry, Hit, LookupResult, Source, Summary, split_pages

__all__ = ["Entry", "Hit", "LookupResult", "RulesLibrary", "Source", "Summary", "load_library", "split_pages"]
