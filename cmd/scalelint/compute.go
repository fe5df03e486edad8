package main

import "io"

func runCompute(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return exitError }
