# flake8: noqa

# import apis into api package
from specyard_fuel.api.exchange_rates_api import ExchangeRatesApi
from specyard_fuel.api.geocoding_api import GeocodingApi
from specyard_fuel.api.meta_api import MetaApi
from specyard_fuel.api.routing_api import RoutingApi
from specyard_fuel.api.stations_api import StationsApi
from specyard_fuel.api.web_api import WebApi

