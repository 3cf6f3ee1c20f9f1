"""What members do in a campaign: one function per verb, each taking a unit of work (ports.py) and
an ``Actor``. Actions read and change a server's data only through the unit's repositories."""
