// Smoke test of the generated Go SDKs against the live servers on demo data (sdks/smoke.test.ts starts
// them and passes their addresses and credentials in the environment).
package smoke

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"

	"specyard.local/sdks/archive"
	"specyard.local/sdks/fuel"
	"specyard.local/sdks/subtitles"
)

func env(t *testing.T, name string) string {
	value := os.Getenv(name)
	if value == "" {
		t.Fatalf("%s is not set", name)
	}
	return value
}

func TestFuelConfigAndABoxOfStations(t *testing.T) {
	cfg := fuel.NewConfiguration()
	cfg.Servers = fuel.ServerConfigurations{{URL: env(t, "SPECYARD_FUEL_URL")}}
	client := fuel.NewAPIClient(cfg)
	ctx := context.Background()

	config, _, err := client.MetaAPI.GetConfig(ctx).Execute()
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	if config.DefaultCountry != "ES" || len(config.EnabledCountries) == 0 {
		t.Fatalf("config: %+v", config)
	}
	stations, _, err := client.StationsAPI.ListStations(ctx).Bbox("-10,35,5,44").Fuel(fuel.FUELCODE_B7).Execute()
	if err != nil {
		t.Fatalf("stations: %v", err)
	}
	if len(stations.Features) == 0 {
		t.Fatal("no stations in the box")
	}
}

// The README's Go example ("Clients in other languages"), line for line but the server's address
// (scripts/readme/marks.test.ts holds the two alike).
func TestReadmeExample(t *testing.T) {
	ctx := context.Background()
	cfg := fuel.NewConfiguration()
	cfg.Servers = fuel.ServerConfigurations{{URL: env(t, "SPECYARD_FUEL_URL")}}
	box, _, err := fuel.NewAPIClient(cfg).StationsAPI.ListStations(ctx).Bbox("-3.80,40.35,-3.60,40.50").Fuel(fuel.FUELCODE_B7).Execute()
	if err != nil {
		t.Fatalf("stations: %v", err)
	}
	for _, station := range box.Features {
		fmt.Println(station.Properties.Name)
	}
	if len(box.Features) == 0 {
		t.Fatal("no stations in the README's box")
	}
}

func TestArchiveLoginChatsMessagesAndSearch(t *testing.T) {
	cfg := archive.NewConfiguration()
	cfg.Servers = archive.ServerConfigurations{{URL: env(t, "SPECYARD_ARCHIVE_URL")}}
	client := archive.NewAPIClient(cfg)
	ctx := context.Background()

	login := archive.NewLoginRequest(env(t, "SPECYARD_ARCHIVE_USERNAME"), env(t, "SPECYARD_ARCHIVE_PASSWORD"))
	_, res, err := client.AuthAPI.Login(ctx).LoginRequest(*login).Execute()
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	// The generator leaves cookie security schemes out: the session cookie goes in as a default header.
	var session *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "viewer_auth" {
			session = c
		}
	}
	if session == nil {
		t.Fatal("login set no viewer_auth cookie")
	}
	cfg.AddDefaultHeader("Cookie", "viewer_auth="+session.Value)

	chats, _, err := client.ChatsAPI.ListChats(ctx).Limit(50).Execute()
	if err != nil {
		t.Fatalf("chats: %v", err)
	}
	if chats.Total == 0 || len(chats.Chats) == 0 {
		t.Fatal("no chats")
	}
	messages, _, err := client.MessagesAPI.ListMessages(ctx, chats.Chats[0].Ref).Limit(20).Execute()
	if err != nil {
		t.Fatalf("messages: %v", err)
	}
	if len(messages) == 0 {
		t.Fatal("no messages in the first chat")
	}
	found, _, err := client.SearchAPI.SearchMessages(ctx).Q("release").Execute()
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	if !found.Indexed || len(found.Results) == 0 {
		t.Fatalf("search: %+v", found)
	}
}

func TestSubtitlesStatusWithAnAPIKey(t *testing.T) {
	cfg := subtitles.NewConfiguration()
	cfg.Servers = subtitles.ServerConfigurations{{URL: env(t, "SPECYARD_SUBTITLES_URL")}}
	client := subtitles.NewAPIClient(cfg)
	ctx := context.WithValue(context.Background(), subtitles.ContextAPIKeys, map[string]subtitles.APIKey{
		"mediaServerToken": {Prefix: "MediaServer", Key: `Token="` + env(t, "SPECYARD_SUBTITLES_API_KEY") + `"`},
	})
	status, _, err := client.SetupAPI.GetSetupStatus(ctx, "Subtitles").Execute()
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	t.Logf("setup complete: %v", status.SetupComplete)
}
