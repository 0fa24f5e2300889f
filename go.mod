module github.com/fastdrain-sim/fastdrain

go 1.26.0
