"""Moving data in and out: the files a night, a tournament and the whole club are exported to and
imported from, and a night's CSV. Import the module you need; this package imports none of them.

- :mod:`.checks`: the checks of a file, value by value (``InvalidExport`` names the JSON path);
- :mod:`.transaction`: ``import_once``, the one transaction of an import (a uid is imported once);
- :mod:`.spreadsheet`: a night's hands as CSV;
- :mod:`.night_file`: a night's JSON file (``night_json``, ``read_night``, ``import_night``);
- :mod:`.tournament_file`: a tournament's (its tables are night files);
- :mod:`.club_file`: the whole club's (its nights and tournaments in the two forms above).
"""
