"""``python -m torite`` is the ``torite`` command."""

from torite.cli.main import main

raise SystemExit(main())
