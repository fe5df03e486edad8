// Package lines packs a text's table of line starts for a program that
// keeps one for each of tens of thousands of files without their texts:
// the language server's compact mappers (lsp.Mapper.Compact) and the
// files a one-shot run dropped the texts of (manifest.File.DropText),
// whose findings are placed from it without reading the files again.
//
// A Packed table holds each line's length, its line break included, as a
// uvarint (one byte for a line under 128 bytes, most lines of a
// manifest), instead of each line's start in 32 or 64 bits, with the
// start of every Stride-th line kept to find a line without decoding
// from the first. At 10,000 services (34,000 files, 69-88 lines each on
// average) that is 3 MB where the starts took 12 MB in 32 bits.
package lines

import (
	"encoding/binary"
	"math"
	"sort"
)

// Packed is a packed table of line starts.
type Packed struct {
	n int // lines
	// marks holds, for lines 0, Stride, 2·Stride, …, the line's start and
	// where its length is in lengths: two uint32 a mark.
	marks   []uint32
	lengths []byte // uvarint, lines 0 to n-2 (the last line's is not needed)
}

// Stride is the number of lines between two marks: a lookup decodes at
// most Stride-1 lengths.
const Stride = 32

// Pack packs a table of line starts (ascending, the first 0). It fails
// (false) for offsets past 4 GiB, which a mark cannot hold.
func Pack[E int | uint32](starts []E) (*Packed, bool) {
	p := &Packed{n: len(starts)}
	if len(starts) == 0 {
		return p, true
	}
	if uint64(starts[len(starts)-1]) > math.MaxUint32 {
		return nil, false
	}
	size := len(starts) - 1
	for i := 1; i < len(starts); i++ {
		if starts[i]-starts[i-1] >= 1<<7 {
			size++ // most lines take one byte; a long one two or more
		}
	}
	p.marks = make([]uint32, 0, 2*((len(starts)+Stride-1)/Stride))
	p.lengths = make([]byte, 0, size)
	for i, s := range starts {
		if i%Stride == 0 {
			if len(p.lengths) > math.MaxUint32 {
				return nil, false
			}
			p.marks = append(p.marks, uint32(s), uint32(len(p.lengths)))
		}
		if i+1 < len(starts) {
			p.lengths = binary.AppendUvarint(p.lengths, uint64(starts[i+1]-s))
		}
	}
	return p, true
}

// Len returns the number of lines.
func (p *Packed) Len() int { return p.n }

// Start returns where line i (0 <= i < Len) starts.
func (p *Packed) Start(i int) int {
	k := i / Stride
	off, at := int(p.marks[2*k]), int(p.marks[2*k+1])
	for j := k * Stride; j < i; j++ {
		d, w := binary.Uvarint(p.lengths[at:])
		off += int(d)
		at += w
	}
	return off
}

// LineOf returns the last line (0-based) that starts at or before off
// (-1 for an off before every line), as sort.Search over the starts
// would.
func (p *Packed) LineOf(off int) int {
	if p.n == 0 {
		return -1
	}
	k := sort.Search(len(p.marks)/2, func(k int) bool { return int(p.marks[2*k]) > off }) - 1
	if k < 0 {
		return -1
	}
	line, start, at := k*Stride, int(p.marks[2*k]), int(p.marks[2*k+1])
	for line+1 < p.n {
		d, w := binary.Uvarint(p.lengths[at:])
		if start+int(d) > off {
			break
		}
		start += int(d)
		at += w
		line++
	}
	return line
}
