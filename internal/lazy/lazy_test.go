package lazy

import (
	"sync"
	"testing"
)

var counted int

var once = Value[int]{New: func() int { counted++; return 42 }}

// New runs once, on the first Get, however many goroutines ask at once.
func TestValueComputedOnceOnFirstGet(t *testing.T) {
	if counted != 0 {
		t.Fatalf("New ran %d times before any Get", counted)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := once.Get(); got != 42 {
				t.Errorf("Get = %d, want 42", got)
			}
		}()
	}
	wg.Wait()
	if counted != 1 {
		t.Fatalf("New ran %d times, want once", counted)
	}
}

var word = Regexp{Expr: `^[a-z]+$`}

func TestRegexpCompiledOnFirstGet(t *testing.T) {
	if word.re != nil {
		t.Fatal("compiled before the first Get")
	}
	re := word.Get()
	if !re.MatchString("abc") || re.MatchString("a1") {
		t.Fatalf("%s matches wrongly", re)
	}
	if word.Get() != re {
		t.Fatal("a second Get compiled it again")
	}
}
