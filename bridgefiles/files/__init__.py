"""What the user hands us and what we hand back: sources (paths, ``-``, bytes, streams)
opened and sniffed, and outputs written safely (regular files only, atomically)."""
