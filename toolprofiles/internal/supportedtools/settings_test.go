package supportedtools

import "testing"

func TestReplaceSettings(t *testing.T) {
	page := "intro\n" + SettingsBegin + "old\n" + SettingsEnd + "outro\n"
	got, ok := ReplaceSettings([]byte(page), []byte("| new |\n"))
	if want := "intro\n" + SettingsBegin + "| new |\n" + SettingsEnd + "outro\n"; !ok || string(got) != want {
		t.Fatalf("got %q, %v", got, ok)
	}
	for _, bad := range []string{
		"no markers\n",
		SettingsEnd + SettingsBegin,
		SettingsBegin + "x\n" + SettingsEnd + SettingsBegin + SettingsEnd,
		SettingsBegin + "x\n",
	} {
		if _, ok := ReplaceSettings([]byte(bad), nil); ok {
			t.Errorf("took %q", bad)
		}
	}
}
