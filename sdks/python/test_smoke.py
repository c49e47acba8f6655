"""Smoke test of the generated Python SDKs against the live servers on demo data (sdks/smoke.test.ts
starts them and passes their addresses and credentials in the environment)."""

import os
import re

import specyard_archive
import specyard_fuel
import specyard_subtitles

ENV = os.environ


def test_fuel_config_and_a_box_of_stations():
    with specyard_fuel.ApiClient(specyard_fuel.Configuration(host=ENV["SPECYARD_FUEL_URL"])) as client:
        config = specyard_fuel.MetaApi(client).get_config()
        assert config.default_country == "ES"
        assert config.enabled_countries, "the demo configuration enables countries"
        stations = specyard_fuel.StationsApi(client).list_stations(
            bbox="-10,35,5,44", fuel=specyard_fuel.FuelCode.B7
        )
        assert len(stations.features) > 0
        assert all(f.properties.country == "ES" or f.properties.country == "PT" for f in stations.features)


def test_archive_login_chats_messages_and_search():
    configuration = specyard_archive.Configuration(host=ENV["SPECYARD_ARCHIVE_URL"])
    with specyard_archive.ApiClient(configuration) as client:
        answer = specyard_archive.AuthApi(client).login_with_http_info(
            specyard_archive.LoginRequest(
                username=ENV["SPECYARD_ARCHIVE_USERNAME"], password=ENV["SPECYARD_ARCHIVE_PASSWORD"]
            )
        )
        assert answer.status_code == 200
        # The session is a cookie the client does not keep by itself: take it from Set-Cookie.
        cookie = re.search(r"viewer_auth=([^;]+)", answer.headers["Set-Cookie"]).group(1)
        configuration.api_key["viewerSession"] = cookie

        chats = specyard_archive.ChatsApi(client).list_chats(limit=50)
        assert chats.total > 0
        chat = chats.chats[0]
        messages = specyard_archive.MessagesApi(client).list_messages(chat.ref, limit=20)
        assert len(messages) > 0
        found = specyard_archive.SearchApi(client).search_messages(q="release")
        assert found.indexed is True
        assert len(found.results) > 0


def test_subtitles_status_with_an_api_key():
    configuration = specyard_subtitles.Configuration(host=ENV["SPECYARD_SUBTITLES_URL"])
    configuration.api_key["mediaServerToken"] = f'Token="{ENV["SPECYARD_SUBTITLES_API_KEY"]}"'
    configuration.api_key_prefix["mediaServerToken"] = "MediaServer"
    with specyard_subtitles.ApiClient(configuration) as client:
        status = specyard_subtitles.SetupApi(client).get_setup_status("Subtitles")
        assert isinstance(status.setup_complete, bool)
