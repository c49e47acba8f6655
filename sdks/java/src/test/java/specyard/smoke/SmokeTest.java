package specyard.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The generated Java SDKs against the live servers on demo data (sdks/smoke.test.ts starts them and passes
 * their addresses and credentials in the environment). The `native` library leaves authentication to the
 * caller: credentials go in through a request interceptor.
 */
class SmokeTest {
  private static String env(String name) {
    return Objects.requireNonNull(System.getenv(name), name + " is not set");
  }

  @Test
  void fuelConfigAndABoxOfStations() throws Exception {
    var client = new specyard.fuel.ApiClient();
    client.updateBaseUri(env("SPECYARD_FUEL_URL"));
    var config = new specyard.fuel.api.MetaApi(client).getConfig();
    assertEquals("ES", config.getDefaultCountry());
    assertFalse(config.getEnabledCountries().isEmpty());
    var stations =
        new specyard.fuel.api.StationsApi(client).listStations("-10,35,5,44", specyard.fuel.model.FuelCode.B7);
    assertFalse(stations.getFeatures().isEmpty());
  }

  /**
   * The README's Java example ("Clients in other languages"), line for line but the server's address
   * (scripts/readme/marks.test.ts holds the two alike).
   */
  @Test
  void readmeExample() throws Exception {
    var client = new specyard.fuel.ApiClient(); // sources: generated/sdks/java/fuel (pom.xml beside them)
    client.updateBaseUri(env("SPECYARD_FUEL_URL"));
    var box = new specyard.fuel.api.StationsApi(client)
        .listStations("-3.80,40.35,-3.60,40.50", specyard.fuel.model.FuelCode.B7);
    box.getFeatures().forEach(station -> System.out.println(station.getProperties().getName()));
    assertFalse(box.getFeatures().isEmpty());
  }

  @Test
  void archiveLoginChatsMessagesAndSearch() throws Exception {
    var client = new specyard.archive.ApiClient();
    client.updateBaseUri(env("SPECYARD_ARCHIVE_URL"));
    // The login answer is a oneOf whose two branches Jackson cannot tell apart (it does not check
    // `required`), so the SDK's login() fails to read it: log in with the JDK's client, then use the SDK.
    var credentials =
        client
            .getObjectMapper()
            .writeValueAsString(
                new specyard.archive.model.LoginRequest()
                    .username(env("SPECYARD_ARCHIVE_USERNAME"))
                    .password(env("SPECYARD_ARCHIVE_PASSWORD")));
    var login =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(client.getBaseUri() + "/api/login"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(credentials))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, login.statusCode());
    String session =
        login.headers().allValues("set-cookie").stream()
            .filter(line -> line.startsWith("viewer_auth="))
            .map(line -> line.split(";", 2)[0])
            .findFirst()
            .orElseThrow();
    client.setRequestInterceptor(request -> request.header("Cookie", session));

    var chats = new specyard.archive.api.ChatsApi(client).listChats(50, null, null, null, null);
    assertTrue(chats.getTotal() > 0);
    var messages =
        new specyard.archive.api.MessagesApi(client)
            .listMessages(chats.getChats().get(0).getRef(), 20, null, null, null, null, null, null);
    assertFalse(messages.isEmpty());
    var found = new specyard.archive.api.SearchApi(client).searchMessages("release", null, null);
    assertTrue(found.getIndexed());
    assertFalse(found.getResults().isEmpty());
  }

  @Test
  void subtitlesStatusWithAnApiKey() throws Exception {
    var client = new specyard.subtitles.ApiClient();
    client.updateBaseUri(env("SPECYARD_SUBTITLES_URL"));
    String key = env("SPECYARD_SUBTITLES_API_KEY");
    client.setRequestInterceptor(request -> request.header("Authorization", "MediaServer Token=\"" + key + "\""));
    var status = new specyard.subtitles.api.SetupApi(client).getSetupStatus("Subtitles");
    assertNotNull(status.getSetupComplete());
  }
}
