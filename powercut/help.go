package powercut

// ScheduleHelp is the schedules' list in the help of fastdrain powercut: each schedule's
// name and, in a few words, when its cut comes (Schedule.Doc says it in full).
const ScheduleHelp = `  random       at the seeded instant itself
  gc-erase     while a block erase is on a die
  fg-evict     while a foreground eviction's program is on a die
  flush        while a Flush waits for the flash
  relocation   while a relocated page's program (GC, a merge's copy) is on a die
  lookahead    when recovery would lose a durable version (the checker's own lookahead)
  word-line    while a program runs whose interruption destroys a page holding a durable
               version (2D: a CSB/MSB program over durable lower pages; 3D: the word line's
               program, or a fine pass)
  two-cut      across power cycles: a random cut, recovery, the firmware mounted on what it
               recovered and the host writing again, then a cut while a program would destroy
               a page written before the mount, or GC erases a block written before it (page
               and sub-page mapping only; other targets are left out with a note)
  fold         while a fold's program (out of an SLC block) is on a die    } only on a machine
  fold-erase   while a folded SLC block's erase is queued or on a die       } with an SLC cache
  slc-full     while the SLC cache is full and a host page goes to native  } (left out otherwise)
`
