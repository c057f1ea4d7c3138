// A Go program that calls zlib through cgo from several goroutines
// (tests/runtime/go.sh). Go ends a process with the exit_group system
// call itself, not through libc's exit: with "finalize" it calls
// libwrap_finalize (found with dlsym, so that the same program runs with
// and without libwrap) before it ends; with "exit" it then ends by
// os.Exit(3); with "term" it is killed by SIGTERM (Go's own handler
// restores the default action and raises the signal again).
package main

/*
#cgo LDFLAGS: -lz -ldl
#include <dlfcn.h>
#include <zlib.h>

static void end_measurement(void)
{
	void (*f)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "libwrap_finalize");
	if (f)
		f();
}
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	how := ""
	if len(os.Args) > 1 {
		how = os.Args[1]
	}
	data := []byte("libwrap")
	var wg sync.WaitGroup
	sums := make([]C.ulong, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var c C.ulong
			for i := 0; i < 250; i++ {
				c = C.crc32(c, (*C.uchar)(unsafe.Pointer(&data[0])), C.uint(len(data)))
			}
			sums[g] = c
		}(g)
	}
	wg.Wait()
	fmt.Printf("crc32 %08x x4\n", uint32(sums[0]))
	switch how {
	case "finalize":
		C.end_measurement()
	case "exit":
		C.end_measurement()
		os.Exit(3)
	case "term":
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(10 * time.Second)
	}
}
