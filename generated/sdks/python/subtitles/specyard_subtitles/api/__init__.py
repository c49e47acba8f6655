# flake8: noqa

# import apis into api package
from specyard_subtitles.api.queue_api import QueueApi
from specyard_subtitles.api.setup_api import SetupApi
from specyard_subtitles.api.system_api import SystemApi
from specyard_subtitles.api.users_api import UsersApi
from specyard_subtitles.api.web_api import WebApi

