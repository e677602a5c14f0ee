// module sim
