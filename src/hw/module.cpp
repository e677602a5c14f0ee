// module hw
