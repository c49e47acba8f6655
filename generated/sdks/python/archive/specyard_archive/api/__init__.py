# flake8: noqa

# import apis into api package
from specyard_archive.api.accounts_api import AccountsApi
from specyard_archive.api.admin_api import AdminApi
from specyard_archive.api.auth_api import AuthApi
from specyard_archive.api.chats_api import ChatsApi
from specyard_archive.api.docs_api import DocsApi
from specyard_archive.api.export_api import ExportApi
from specyard_archive.api.folders_api import FoldersApi
from specyard_archive.api.health_api import HealthApi
from specyard_archive.api.internal_api import InternalApi
from specyard_archive.api.media_api import MediaApi
from specyard_archive.api.messages_api import MessagesApi
from specyard_archive.api.push_api import PushApi
from specyard_archive.api.search_api import SearchApi
from specyard_archive.api.transcripts_api import TranscriptsApi
from specyard_archive.api.web_api import WebApi

