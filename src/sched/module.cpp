// placeholder until the first sched source lands
