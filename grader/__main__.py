import sys

from grader.commands.launch import forget_working_folder

sys.path[:] = forget_working_folder(sys.path)  # before anything is imported from it (see grader.commands.launch)

from grader.commands.cli import main  # noqa: E402
from grader.sandbox.stopping import exit_with  # noqa: E402

exit_with(main())
