package main

import "io"

func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return exitError }
