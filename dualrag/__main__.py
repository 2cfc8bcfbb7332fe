from dualrag.cli import main

main()
