module scalelint.dev/bench/lspbench

go 1.26
