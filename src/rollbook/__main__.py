from rollbook.cli import main

main()
