// SPDX-License-Identifier: Apache-2.0

// Command chanbench measures Go's buffered channels exactly as
// bench/chan/chan_bench.c measures memcoro channels: the same points, the
// same two phases, the same CSV. Goroutines on GOMAXPROCS threads play the
// senders and receivers.
//
//	chanbench [-messages M]
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"time"
)

// Capacities of the blocking phase, as in chan_bench.c.
var blockingCapacities = []int{16, 64}

type point struct {
	mode               string
	senders, receivers int
}

// The same list as chan_bench.c; Go has one kind of channel for all of them.
var points = []point{
	{"SPSC", 1, 1}, {"SPMC", 1, 1}, {"SPMC", 1, 10}, {"SPMC", 1, 32},
	{"MPSC", 1, 1}, {"MPSC", 10, 1}, {"MPSC", 32, 1},
	{"MPMC", 1, 1}, {"MPMC", 10, 10}, {"MPMC", 32, 32},
}

func xorshift(x uint64) uint64 {
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	return x
}

func share(messages uint64, n, i int) uint64 {
	c := messages / uint64(n)
	if uint64(i) < messages%uint64(n) {
		c++
	}
	return c
}

func seed(i int) uint64 { return 0x9E3779B97F4A7C15 * uint64(i+1) }

// run starts n goroutines running body(i) and waits for all of them.
func run(n int, body func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			defer wg.Done()
			body(i)
		}(i)
	}
	wg.Wait()
}

func senderBody(ch chan uint64, sums []uint64, messages uint64, n int) func(int) {
	return func(i int) {
		s, sum := seed(i), uint64(0)
		for k := share(messages, n, i); k > 0; k-- {
			s = xorshift(s)
			sum += s
			ch <- s
		}
		sums[i] = sum
	}
}

func receiverBody(ch chan uint64, sums []uint64, messages uint64, n int) func(int) {
	return func(i int) {
		sum := uint64(0)
		for k := share(messages, n, i); k > 0; k-- {
			sum += <-ch
		}
		sums[i] = sum
	}
}

func total(v []uint64) (t uint64) {
	for _, x := range v {
		t += x
	}
	return
}

func verdict(sent, got []uint64) string {
	if total(sent) == total(got) {
		return "PASS"
	}
	return "FAIL"
}

func measure(p point, messages uint64) bool {
	sent := make([]uint64, p.senders)
	got := make([]uint64, p.receivers)

	ch := make(chan uint64, messages)
	t0 := time.Now()
	run(p.senders, senderBody(ch, sent, messages, p.senders))
	t1 := time.Now()
	run(p.receivers, receiverBody(ch, got, messages, p.receivers))
	t2 := time.Now()
	v := verdict(sent, got)
	fmt.Printf("go,%s,%d,%d,%d,unbounded,send,%.2f,%s\n", p.mode, p.senders, p.receivers,
		messages, float64(t1.Sub(t0).Nanoseconds())/float64(messages), v)
	fmt.Printf("go,%s,%d,%d,%d,unbounded,recv,%.2f,%s\n", p.mode, p.senders, p.receivers,
		messages, float64(t2.Sub(t1).Nanoseconds())/float64(messages), v)
	ok := v == "PASS"

	for _, capacity := range blockingCapacities {
		ch = make(chan uint64, capacity)
		t0 = time.Now()
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); run(p.receivers, receiverBody(ch, got, messages, p.receivers)) }()
		go func() { defer wg.Done(); run(p.senders, senderBody(ch, sent, messages, p.senders)) }()
		wg.Wait()
		t1 = time.Now()
		v = verdict(sent, got)
		fmt.Printf("go,%s,%d,%d,%d,blocking,transfer,%.2f,%s\n", p.mode, p.senders, p.receivers,
			capacity, float64(t1.Sub(t0).Nanoseconds())/float64(messages), v)
		ok = ok && v == "PASS"
	}
	return ok
}

func main() {
	messages := flag.Uint64("messages", 1000000, "messages per phase")
	flag.Parse()
	if *messages < 64 {
		fmt.Fprintln(os.Stderr, "chanbench: -messages must be at least 64")
		os.Exit(2)
	}
	ok := true
	for _, p := range points {
		fmt.Fprintf(os.Stderr, "chanbench go: %s %d->%d\n", p.mode, p.senders, p.receivers)
		ok = measure(p, *messages) && ok
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "chanbench: verification FAILED")
		os.Exit(1)
	}
}
