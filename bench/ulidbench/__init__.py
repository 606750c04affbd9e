"""The benchmark driver behind bench/run, by concern:

  common     paths, messages, psql, the server's binaries, git, the machine
  workloads  the workload files of bench/workloads/ and the sizes of a run
  running    running and timing them in throwaway clusters; the data files
  reporting  tables from data files: --report, --history, and the report
             (BENCHMARKS.md, README's performance table) of a recording run
  plotting   the plots (matplotlib, where it is installed)
  cli        the command line of bench/run

bench/cold_lookups uses common too.  bench/test runs every workload at a
tiny size through this package.
"""
