// module workload
