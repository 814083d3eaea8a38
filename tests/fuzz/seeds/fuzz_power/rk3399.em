clusters 2
clusterA: 2 cap states 3 C states

P-states:
408	4	30
1416	12	180
C-states:
WFI	5	10
cpu-sleep	3	0
cluster-sleep	0	0
wakeup	60	6
clusterB: 1 cap states 3 C states
P-states:
1800	40	900
C-states:
WFI	10	40
cpu-sleep	5	0
cluster-sleep	0	0
wakeup	120	12
