import sys

from euchre.cli import main

sys.exit(main())
