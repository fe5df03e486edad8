package chart

import (
	"fmt"
	"io"
	"os"
)

// readSmall reads a file of at most limit bytes.
func readSmall(p string, limit int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s is over the input limit of %d bytes", p, limit)
	}
	return data, nil
}
