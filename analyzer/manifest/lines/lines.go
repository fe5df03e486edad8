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
	"math/bits"
	"sort"
)

// Packed is a packed table of line starts, in one allocation: a run
// keeps one for each of tens of thousands of files.
type Packed struct {
	n       uint32 // lines
	marksAt uint32 // where the marks start in data
	// data holds the lengths of lines 0 to n-2 (the last line's is not
	// needed) as uvarints, then the marks: for lines 0, Stride, 2·Stride,
	// …, the line's start and where its length is in data, two
	// little-endian uint32 a mark.
	data []byte
}

// Stride is the number of lines between two marks: a lookup decodes at
// most Stride-1 lengths.
const Stride = 32

// Pack packs a table of line starts (ascending, the first 0). It fails
// (false) for offsets past 4 GiB, which a mark cannot hold.
func Pack[E int | uint32](starts []E) (*Packed, bool) {
	if len(starts) == 0 {
		return &Packed{}, true
	}
	if uint64(starts[len(starts)-1]) > math.MaxUint32 || uint64(len(starts)) > math.MaxUint32 {
		return nil, false
	}
	size := len(starts) - 1
	for i := 1; i < len(starts); i++ {
		size += (bits.Len64(uint64(starts[i]-starts[i-1])) - 1) / 7 // bytes past the first of its uvarint
	}
	marks := (len(starts) + Stride - 1) / Stride
	if uint64(size)+8*uint64(marks) > math.MaxUint32 {
		return nil, false
	}
	p := &Packed{n: uint32(len(starts)), marksAt: uint32(size), data: make([]byte, size, size+8*marks)}
	at := 0
	for i, s := range starts {
		if i%Stride == 0 {
			p.data = binary.LittleEndian.AppendUint32(p.data, uint32(s))
			p.data = binary.LittleEndian.AppendUint32(p.data, uint32(at))
		}
		if i+1 < len(starts) {
			at += binary.PutUvarint(p.data[at:], uint64(starts[i+1]-s))
		}
	}
	return p, true
}

// Len returns the number of lines.
func (p *Packed) Len() int { return int(p.n) }

// mark returns the start of line k·Stride and where its length is.
func (p *Packed) mark(k int) (start, at int) {
	m := p.data[int(p.marksAt)+8*k:]
	return int(binary.LittleEndian.Uint32(m)), int(binary.LittleEndian.Uint32(m[4:]))
}

// Start returns where line i (0 <= i < Len) starts.
func (p *Packed) Start(i int) int {
	k := i / Stride
	off, at := p.mark(k)
	for j := k * Stride; j < i; j++ {
		d, w := binary.Uvarint(p.data[at:])
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
	marks := (len(p.data) - int(p.marksAt)) / 8
	k := sort.Search(marks, func(k int) bool { s, _ := p.mark(k); return s > off }) - 1
	if k < 0 {
		return -1
	}
	line := k * Stride
	start, at := p.mark(k)
	for line+1 < int(p.n) {
		d, w := binary.Uvarint(p.data[at:])
		if start+int(d) > off {
			break
		}
		start += int(d)
		at += w
		line++
	}
	return line
}
